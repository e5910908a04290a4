import nodemailer from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool/index.js";
import { EVENT_WORDS } from "../messages/event-words.ts";
import type { HttpAnswer } from "./send-http.ts";

export type EmailMessage = { to: string[]; subject: string; text: string; headers: Record<string, string> };

export type EmailSender = {
  /**
   * Hands the message to the relay. The answer is told as the dispatcher's HTTP verdicts know
   * it: accepted 200, a temporary SMTP refusal (4xx) 503 (retried), a permanent one (5xx) 400
   * (failed at once); no answer rejects (retried), like a network error.
   */
  send: (message: EmailMessage) => Promise<HttpAnswer>;
  close: () => Promise<void>;
};

/**
 * Email channels' transport: one SMTP relay for the service (SMTP_URL, the operator's, so
 * no channel can point it anywhere), pooled connections, the attempt timeout on connecting,
 * greeting and each command.
 */
export function createEmailSender(options: { smtpUrl: string; from: string; timeoutMs: number }): EmailSender {
  const pool: SMTPPool.Options = {
    url: options.smtpUrl,
    pool: true,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  };
  const transport = nodemailer.createTransport(pool, { from: options.from });
  return {
    send: async (message) => {
      try {
        await transport.sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
          headers: message.headers,
        });
        return { statusCode: 200, retryAfterMs: null };
      } catch (error) {
        const code = (error as { responseCode?: unknown }).responseCode;
        if (typeof code === "number" && code >= 400 && code < 500) return { statusCode: 503, retryAfterMs: null };
        if (typeof code === "number" && code >= 500) return { statusCode: 400, retryAfterMs: null };
        throw error;
      }
    },
    close: async () => {
      transport.close();
    },
  };
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** Subject and plain text of an alert event for people; one line per fact, metadata at the end. */
export function emailContent(event: { type: string; occurredAt: string; alert: Record<string, unknown> }): {
  subject: string;
  text: string;
} {
  const alert = event.alert;
  const severity = (text(alert.severity) || "sev2").toUpperCase();
  const title = (text(alert.title) || "(untitled alert)").replace(/[\r\n]+/g, " ");
  const what = EVENT_WORDS[event.type] ?? event.type;
  const lines = [
    title,
    "",
    text(alert.description),
    "",
    `Severity: ${severity}`,
    `Event: ${event.type}`,
    `Status: ${text(alert.status)}`,
    ...(event.type === "alert.resolved" && text(alert.resolvedBy) ? [`Resolved by: ${text(alert.resolvedBy)}`] : []),
    ...(event.type === "alert.acknowledged" && text(alert.acknowledgedBy)
      ? [`Acknowledged by: ${text(alert.acknowledgedBy)}`]
      : []),
    `Occurrences: ${String(alert.occurrenceCount ?? "")}`,
    `Group key: ${text(alert.groupKey) || "(none)"}`,
    `Source: ${text(alert.source)} ${text(alert.sourceId)}`,
    `Alert: ${text(alert.id)}`,
    `At: ${event.occurredAt}`,
  ];
  const metadata = alert.metadata;
  if (metadata && typeof metadata === "object" && !Array.isArray(metadata)) {
    lines.push("", "Metadata:");
    for (const [key, value] of Object.entries(metadata).slice(0, 20)) {
      lines.push(`  ${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
    }
  }
  return { subject: `[${severity}] ${what}: ${[...title].slice(0, 150).join("")}`, text: `${lines.join("\n")}\n` };
}

/** The recipients of a `mailto:` channel URL (comma-separated, at most 10), or null when it is not one. */
export function mailRecipients(url: string): string[] | null {
  if (!url.toLowerCase().startsWith("mailto:")) return null;
  const list = decodeURIComponent(url.slice("mailto:".length).split("?", 1)[0] ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const address = /^[^\s@<>(),;:"\\]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
  if (list.length === 0 || list.length > 10 || !list.every((entry) => address.test(entry) && entry.length <= 254)) {
    return null;
  }
  return list;
}
