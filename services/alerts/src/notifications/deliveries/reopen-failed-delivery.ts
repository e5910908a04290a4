import type { DeliveryStatus } from "@pulsegate/contract/vocabulary";
import type { EntityManager } from "@pulsegate/db";

/** A delivery's status, and whether its channel can still be sent to (enabled, not deleted). */
const SELECT_DELIVERY_STATE = `
  SELECT d.status, (c.enabled AND c.deleted_at IS NULL) AS usable
    FROM alerts.deliveries d JOIN alerts.channels c ON c.id = d.channel_id WHERE d.id = ?`;

/** A failed delivery pending again, due now, with more attempts; nothing when it is not failed (any more). */
const REOPEN_FAILED_DELIVERY = `
  UPDATE alerts.deliveries
     SET status = 'pending', next_attempt_at = now(), max_attempts = attempts + ?, locked_until = NULL,
         lease_token = NULL, updated_at = now()
   WHERE id = ? AND status = 'failed' RETURNING id`;

export async function selectDeliveryState(
  em: EntityManager,
  id: string,
): Promise<{ status: DeliveryStatus; usable: boolean } | undefined> {
  const [row] = await em.execute<{ status: DeliveryStatus; usable: boolean }[]>(SELECT_DELIVERY_STATE, [id]);
  return row;
}

/** True when this call reopened it (a concurrent retry may have got there first). */
export async function reopenFailedDelivery(em: EntityManager, id: string, extraAttempts: number): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(REOPEN_FAILED_DELIVERY, [extraAttempts, id]);
  return rows.length > 0;
}
