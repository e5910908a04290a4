import type { Severity } from "@pulsegate/contract/vocabulary";
import type { NotificationEvent } from "./notification-event.ts";

/**
 * Bodies for the incident tools a channel may point at: PagerDuty's
 * Events API v2 and Opsgenie's Alert API. An alert maps to one incident there,
 * keyed by the alert id (PagerDuty's dedup_key, Opsgenie's alias), so a
 * reopen or reminder updates the same incident, an acknowledgement
 * acknowledges it there and a resolve closes it.
 */

const text = (value: unknown): string => (typeof value === "string" ? value : "");

function clip(value: string, max: number): string {
  const points = [...value];
  return points.length <= max ? value : `${points.slice(0, max - 1).join("")}…`;
}

const PAGERDUTY_SEVERITY: Record<string, string> = {
  sev0: "critical",
  sev1: "error",
  sev2: "warning",
  sev3: "info",
  sev4: "info",
} satisfies Record<Severity, string>;

/**
 * A PagerDuty Events API v2 event: trigger (created, reopened, reminder), acknowledge or resolve.
 * Acknowledge and resolve events carry no payload in that API, so not who did it either.
 */
export function pagerDutyBody(event: NotificationEvent, routingKey: string): Buffer {
  const alert = event.alert;
  const dedupKey = text(alert.id);
  if (event.type === "alert.resolved" || event.type === "alert.acknowledged") {
    const action = event.type === "alert.resolved" ? "resolve" : "acknowledge";
    return Buffer.from(JSON.stringify({ routing_key: routingKey, event_action: action, dedup_key: dedupKey }));
  }
  return Buffer.from(
    JSON.stringify({
      routing_key: routingKey,
      event_action: "trigger",
      dedup_key: dedupKey,
      payload: {
        summary: clip(text(alert.title) || "(untitled alert)", 1024),
        source: `pulsegate ${text(alert.source) || "webhook"} ${text(alert.sourceId)}`.trim(),
        severity: PAGERDUTY_SEVERITY[text(alert.severity)] ?? "warning",
        timestamp: event.occurredAt,
        group: text(alert.groupKey) || undefined,
        custom_details: {
          description: text(alert.description),
          occurrenceCount: alert.occurrenceCount,
          event: event.type,
          metadata: alert.metadata ?? null,
        },
      },
      client: "Pulsegate",
    }),
  );
}

const OPSGENIE_PRIORITY: Record<string, string> = {
  sev0: "P1",
  sev1: "P2",
  sev2: "P3",
  sev3: "P4",
  sev4: "P5",
} satisfies Record<Severity, string>;

/**
 * An Opsgenie Alert API request: create (created, reopened, reminder; Opsgenie
 * de-duplicates on the alias) to the channel's URL, acknowledge to
 * `<url>/<alias>/acknowledge?identifierType=alias`, or close to
 * `<url>/<alias>/close?identifierType=alias`, the last two with a note saying
 * who. `Authorization: GenieKey <key>`.
 */
export function opsgenieRequest(
  event: NotificationEvent,
  url: string,
  apiKey: string,
): { url: string; body: Buffer; headers: Record<string, string> } {
  const alert = event.alert;
  const alias = text(alert.id);
  const headers = { authorization: `GenieKey ${apiKey}` };
  if (event.type === "alert.resolved" || event.type === "alert.acknowledged") {
    const resolved = event.type === "alert.resolved";
    const action = resolved ? "close" : "acknowledge";
    const actionUrl = `${url.replace(/\/+$/, "")}/${encodeURIComponent(alias)}/${action}?identifierType=alias`;
    const done = resolved ? "Resolved" : "Acknowledged";
    const by = text(resolved ? alert.resolvedBy : alert.acknowledgedBy);
    const note = by ? clip(`${done} by ${by}`, 25_000) : done;
    return { url: actionUrl, headers, body: Buffer.from(JSON.stringify({ source: "Pulsegate", note })) };
  }
  const details: Record<string, string> = { event: event.type, occurrenceCount: String(alert.occurrenceCount ?? "") };
  if (text(alert.groupKey)) details.groupKey = text(alert.groupKey);
  const metadata = alert.metadata;
  if (metadata && typeof metadata === "object" && !Array.isArray(metadata)) {
    for (const [key, value] of Object.entries(metadata).slice(0, 20)) {
      details[`metadata.${key}`] = clip(typeof value === "string" ? value : JSON.stringify(value), 200);
    }
  }
  return {
    url,
    headers,
    body: Buffer.from(
      JSON.stringify({
        message: clip(text(alert.title) || "(untitled alert)", 130),
        alias,
        description: clip(text(alert.description), 15_000),
        priority: OPSGENIE_PRIORITY[text(alert.severity)] ?? "P3",
        source: "Pulsegate",
        details,
      }),
    ),
  };
}
