// The API's words for each closed set of values. The SDK stands alone (no runtime dependency, not
// even a type-only one on an unpublished workspace package), so it keeps its own copy of the lists
// of packages/vocabulary/src/words.ts; words.test.ts fails the moment the two differ.

export const SEVERITIES = ["sev0", "sev1", "sev2", "sev3", "sev4"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** open → acknowledged → resolved; a trigger can reopen a resolved alert. */
export const ALERT_STATUSES = ["open", "acknowledged", "resolved"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const ALERT_SOURCES = ["webhook", "monitor"] as const;
export type AlertSource = (typeof ALERT_SOURCES)[number];

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
  "alert.resolved",
  "alert.reminder",
  "channel.disabled",
] as const;
export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];
