import type { AlertEventType } from "../../outbox/write-outbox-events.ts";

/** How people read an alert event's type, in Slack messages and emails. */
export const EVENT_WORDS: Readonly<Record<string, string>> = {
  "alert.created": "Alert created",
  "alert.reopened": "Alert reopened",
  "alert.acknowledged": "Alert acknowledged",
  "alert.resolved": "Alert resolved",
  "alert.reminder": "Still open (reminder)",
} satisfies Record<AlertEventType, string>;
