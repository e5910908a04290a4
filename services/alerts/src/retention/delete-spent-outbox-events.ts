import type { EntityManager } from "@pulsegate/db";

/**
 * One batch of outbox events written more than `retentionDays` ago, expanded, that no delivery
 * refers to any more: either they were routed nowhere, or all their deliveries ended and were
 * pruned. An event awaiting expansion (queued in alerts.outbox_pending), or with a delivery left
 * (pending, or final but recent), stays. `?`: retention days, batch size.
 */
export const DELETE_SPENT_OUTBOX_EVENTS = `DELETE FROM alerts.outbox WHERE id IN (
       SELECT o.id FROM alerts.outbox o
        WHERE o.created_at < now() - make_interval(days => ?)
          AND NOT EXISTS (SELECT 1 FROM alerts.outbox_pending q WHERE q.outbox_id = o.id)
          AND NOT EXISTS (SELECT 1 FROM alerts.deliveries d WHERE d.outbox_id = o.id)
        ORDER BY o.id LIMIT ? FOR UPDATE SKIP LOCKED)`;

export async function deleteSpentOutboxEvents(
  tx: EntityManager,
  batchSize: number,
  retentionDays: number,
): Promise<number> {
  const result = await tx.execute<{ affectedRows: number }>(
    DELETE_SPENT_OUTBOX_EVENTS,
    [retentionDays, batchSize],
    "run",
  );
  return result.affectedRows;
}
