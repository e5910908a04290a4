import type { EntityManager } from "@pulsegate/db";
import type { AlertView } from "../alerts/alert-row.ts";

export type AlertEventType = "alert.created" | "alert.reopened" | "alert.resolved";

/**
 * Writes the event for a created, reopened or resolved alert into the outbox,
 * inside the caller's transaction: the alert and its notification commit or
 * roll back together. Delivery is the dispatcher's job.
 */
export async function writeOutboxEvent(
  em: EntityManager,
  type: AlertEventType,
  alert: AlertView,
  occurredAt: Date,
): Promise<void> {
  const payload = { type, occurredAt: occurredAt.toISOString(), alert };
  await em.execute(
    "INSERT INTO alerts.outbox (team_id, alert_id, event_type, payload, created_at) VALUES (?, ?, ?, ?::json, ?)",
    [alert.teamId, alert.id, type, JSON.stringify(payload), occurredAt],
  );
}
