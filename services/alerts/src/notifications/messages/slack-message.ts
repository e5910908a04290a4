import type { Severity } from "@pulsegate/contract/vocabulary";
import { EVENT_WORDS } from "./event-words.ts";
import type { NotificationEvent } from "./notification-event.ts";

const SEVERITY_EMOJI: Record<string, string> = {
  sev0: ":red_circle:",
  sev1: ":large_orange_circle:",
  sev2: ":large_yellow_circle:",
  sev3: ":large_blue_circle:",
  sev4: ":white_circle:",
} satisfies Record<Severity, string>;

const METADATA_ENTRIES = 10;

/**
 * A Slack incoming-webhook message for an alert event (Block Kit, with a
 * plain `text` fallback for notifications). Everything in it comes from the
 * caller that triggered the alert, so it is escaped: `<`, `>` and `&` cannot
 * form links or @-mentions, metadata sits in code spans (never linked), and
 * unfurling is off. Lengths stay within Slack's block limits.
 */
export function slackMessage(event: NotificationEvent) {
  const alert = event.alert;
  const severity = text(alert.severity) || "sev2";
  const title = text(alert.title) || "(untitled alert)";
  const description = text(alert.description);
  const resolved = event.type === "alert.resolved";
  const acknowledged = event.type === "alert.acknowledged";
  const emoji = resolved ? ":white_check_mark:" : acknowledged ? ":eyes:" : (SEVERITY_EMOJI[severity] ?? ":warning:");
  const what = EVENT_WORDS[event.type] ?? event.type;
  const fields = [
    `*Severity*\n${severity.toUpperCase()}`,
    `*Occurrences*\n${Number(alert.occurrenceCount) || 1}`,
    `*Event*\n${escapeMrkdwn(event.type)}`,
    `*Status*\n${escapeMrkdwn(text(alert.status) || "open")}`,
  ];
  if (resolved && text(alert.resolvedBy)) fields.push(`*Resolved by*\n${escapeMrkdwn(text(alert.resolvedBy))}`);
  if (acknowledged && text(alert.acknowledgedBy)) {
    fields.push(`*Acknowledged by*\n${escapeMrkdwn(text(alert.acknowledgedBy))}`);
  }
  if (text(alert.source)) fields.push(`*Source*\n${escapeMrkdwn(text(alert.source))}`);
  if (text(alert.groupKey)) fields.push(`*Group key*\n${code(text(alert.groupKey), 200)}`);
  const metadata = metadataSummary(alert.metadata);
  const blocks: unknown[] = [
    {
      type: "header",
      text: { type: "plain_text", text: clip(`${emoji} ${severity.toUpperCase()} · ${what}`, 150), emoji: true },
    },
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: clip(`*${escapeMrkdwn(title)}*${description ? `\n${escapeMrkdwn(description)}` : ""}`, 3_000),
      },
    },
    { type: "section", fields: fields.map((field) => ({ type: "mrkdwn", text: clip(field, 2_000) })) },
  ];
  if (metadata)
    blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: clip(`Metadata: ${metadata}`, 3_000) }] });
  blocks.push({
    type: "context",
    elements: [
      { type: "mrkdwn", text: `Pulsegate alert ${code(text(alert.id), 100)} · ${escapeMrkdwn(event.occurredAt)}` },
    ],
  });
  return {
    text: clip(`[${severity.toUpperCase()}] ${what}: ${escapeMrkdwn(title)}`, 3_000),
    blocks,
    unfurl_links: false,
    unfurl_media: false,
  };
}

/** "`key`: `value` · …" over the first top-level entries; nested values as JSON, all clipped. */
export function metadataSummary(metadata: unknown): string {
  if (metadata === null || metadata === undefined) return "";
  if (typeof metadata !== "object" || Array.isArray(metadata)) return code(JSON.stringify(metadata), 200);
  const entries = Object.entries(metadata as Record<string, unknown>);
  if (entries.length === 0) return "";
  const shown = entries
    .slice(0, METADATA_ENTRIES)
    .map(([key, value]) => `${code(key, 40)}: ${code(typeof value === "string" ? value : JSON.stringify(value), 80)}`);
  const more = entries.length - METADATA_ENTRIES;
  return shown.join(" · ") + (more > 0 ? ` · and ${more} more` : "");
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Slack's three control characters; with them escaped nothing becomes a link or a mention. */
function escapeMrkdwn(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** An inline code span: Slack neither links nor formats inside it. Backticks would end it early. */
function code(value: string, max: number): string {
  const flat = value.replaceAll("`", "'").replaceAll("\n", " ");
  return `\`${escapeMrkdwn(clip(flat, max))}\``;
}

/** At most `max` code points, with an ellipsis when cut. */
function clip(value: string, max: number): string {
  const points = [...value];
  return points.length <= max ? value : `${points.slice(0, max - 1).join("")}…`;
}
