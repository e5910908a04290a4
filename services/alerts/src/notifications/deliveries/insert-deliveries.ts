import type { EntityManager } from "@pulsegate/db";

/** A delivery to write: one outbox event to one channel. */
export type NewDelivery = {
  id: string;
  outbox_id: string;
  channel_id: string;
  team_id: string;
  alert_id: string | null;
  event_type: string;
};

/**
 * Pending deliveries, due now, the whole list as one JSON document: one statement however many.
 * The unique (outbox_id, channel_id) makes a repeat harmless. `?`: max attempts, the deliveries.
 */
export const INSERT_DELIVERIES = `INSERT INTO alerts.deliveries (id, outbox_id, channel_id, team_id, alert_id, event_type, status, attempts,
                                        max_attempts, next_attempt_at, created_at, updated_at)
         SELECT d.id, d.outbox_id::bigint, d.channel_id, d.team_id, d.alert_id, d.event_type, 'pending', 0, ?,
                now(), now(), now()
           FROM jsonb_to_recordset(?::jsonb)
             AS d(id text, outbox_id text, channel_id text, team_id text, alert_id text, event_type text)
         ON CONFLICT (outbox_id, channel_id) DO NOTHING`;

export async function insertDeliveries(
  em: EntityManager,
  deliveries: NewDelivery[],
  maxAttempts: number,
): Promise<void> {
  await em.execute(INSERT_DELIVERIES, [maxAttempts, JSON.stringify(deliveries)]);
}
