import type { EntityManager } from "@pulsegate/db";
import { traceparentOf } from "@pulsegate/telemetry";
import type { DeliveryEvent } from "@pulsegate/vocabulary";
import type { AlertView } from "../alerts/alert-row.ts";
import type { CHANNEL_DISABLED } from "../notifications/channel-notice.ts";

/** alert.reminder (issue 13): repeated while an alert with a reminder interval stays open and unacknowledged. */
export type AlertEventType = Exclude<DeliveryEvent, typeof CHANNEL_DISABLED>;

/**
 * Writes the event for a created, reopened or resolved alert into the outbox,
 * inside the caller's transaction: the alert and its notification commit or
 * roll back together. Delivery is the dispatcher's job; it continues the
 * trace of the work that wrote the event (an admin request resolving an alert).
 */
export async function writeOutboxEvent(
  em: EntityManager,
  type: AlertEventType,
  alert: AlertView,
  occurredAt: Date,
): Promise<void> {
  await em.execute(
    `INSERT INTO alerts.outbox (team_id, alert_id, event_type, payload, created_at, traceparent)
     VALUES (?, ?, ?, ?::jsonb, ?, ?)`,
    [alert.teamId, alert.id, type, outboxPayload(type, alert, occurredAt), occurredAt, traceparentOf() || null],
  );
}

/** An event's payload as JSON text: the event and the alert as it stands after it (trigger batches write it too). */
export function outboxPayload(type: AlertEventType, alert: AlertView, occurredAt: Date): string {
  return JSON.stringify({ type, occurredAt: occurredAt.toISOString(), alert });
}
