import type { EntityManager } from "@pulsegate/db";

/**
 * One batch of deliveries that reached a final state (delivered, failed, cancelled) more than
 * `retentionDays` ago, counted from their last change. Pending ones are never touched, nor any
 * row still under a lease; SKIP LOCKED steps around rows the dispatcher is working on.
 * `?`: retention days, batch size.
 */
export const DELETE_FINAL_DELIVERIES = `DELETE FROM alerts.deliveries WHERE id IN (
       SELECT id FROM alerts.deliveries
        WHERE status IN ('delivered', 'failed', 'cancelled')
          AND updated_at < now() - make_interval(days => ?)
          AND (locked_until IS NULL OR locked_until <= now())
        LIMIT ? FOR UPDATE SKIP LOCKED)`;

export async function deleteFinalDeliveries(
  tx: EntityManager,
  batchSize: number,
  retentionDays: number,
): Promise<number> {
  const result = await tx.execute<{ affectedRows: number }>(DELETE_FINAL_DELIVERIES, [retentionDays, batchSize], "run");
  return result.affectedRows;
}
