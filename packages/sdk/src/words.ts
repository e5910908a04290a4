// Pulsegate's words for each closed set of values: stored in the database, sent in JSON, named in
// error messages. Each list is written here only. They live in the SDK because it is what callers
// get and it must stand alone (no dependency); the services read them through @pulsegate/vocabulary,
// which re-exports them and maps them to the proto enums (between services the enums carry them).

export const SEVERITIES = ["sev0", "sev1", "sev2", "sev3", "sev4"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** open → acknowledged → resolved; a trigger can reopen a resolved alert. */
export const ALERT_STATUSES = ["open", "acknowledged", "resolved"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const ALERT_SOURCES = ["webhook", "monitor"] as const;
export type AlertSource = (typeof ALERT_SOURCES)[number];

/**
 * How a webhook's requests are authorised and what they carry: `signed`, Pulsegate's trigger body
 * signed with the team's secret (the default); `alertmanager`, Prometheus Alertmanager's payload
 * with the webhook's own bearer token.
 */
export const WEBHOOK_SOURCES = ["signed", "alertmanager"] as const;
export type WebhookSource = (typeof WEBHOOK_SOURCES)[number];

export const MONITOR_STATUSES = ["idle", "up", "down", "paused"] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

/** "start" opens a run (start/finish signals); the next up or down ping closes it. */
export const PING_STATUSES = ["up", "down", "start"] as const;
export type PingStatus = (typeof PING_STATUSES)[number];

export const CHANNEL_KINDS = ["slack", "webhook", "pagerduty", "opsgenie", "email"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What a notification tells its channel: an alert's event, or a channel notice (channel.disabled). */
export const DELIVERY_EVENTS = [
  "alert.created",
  "alert.reopened",
  "alert.acknowledged",
  "alert.resolved",
  "alert.reminder",
  "channel.disabled",
] as const;
export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];

/**
 * How requests to a webhook or monitor are signed, and how a webhook channel signs its
 * notifications: "pulsegate" (X-Webhook-Signature, hex; the default) or "standard-webhooks"
 * (webhook-id, webhook-timestamp, webhook-signature; standardwebhooks.com).
 */
export const SIGNATURE_SCHEMES = ["pulsegate", "standard-webhooks"] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** A webhook filter rule's operators ("exists" and "not exists" take no value). */
export const FILTER_OPS = [
  "==",
  "!=",
  "in",
  "not in",
  "contains",
  "exists",
  "not exists",
  ">",
  ">=",
  "<",
  "<=",
  "starts with",
] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** A type guard for one of the lists above: `isOneOf(SEVERITIES, value)`. */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (list as readonly string[]).includes(value);
}

export const isSeverity = (value: unknown): value is Severity => isOneOf(SEVERITIES, value);
