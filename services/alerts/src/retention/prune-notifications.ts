import { type BatchLimits, deleteInBatchesInOrder, type EntityManager, type Orm } from "@pulsegate/db";

export const ALERTS_RETENTION_LOCK = "pulsegate:retention:alerts";

export type NotificationPruneResult = {
  /** Another replica was pruning: nothing was done. */
  skipped: boolean;
  deliveries: number;
  outbox: number;
  /** A cap was reached with rows left: run again soon. */
  more: boolean;
};

/**
 * Deliveries that reached a final state (delivered, failed, cancelled) more
 * than `retentionDays` ago, counted from their last change. Pending ones are
 * never touched, nor any row still under a lease; SKIP LOCKED steps around
 * rows the dispatcher is working on.
 */
async function deleteFinalDeliveries(tx: EntityManager, batchSize: number, retentionDays: number): Promise<number> {
  const result = await tx.execute<{ affectedRows: number }>(
    `DELETE FROM alerts.deliveries WHERE id IN (
       SELECT id FROM alerts.deliveries
        WHERE status IN ('delivered', 'failed', 'cancelled')
          AND updated_at < now() - make_interval(days => ?)
          AND (locked_until IS NULL OR locked_until <= now())
        LIMIT ? FOR UPDATE SKIP LOCKED)`,
    [retentionDays, batchSize],
    "run",
  );
  return result.affectedRows;
}

/**
 * Outbox events expanded more than `retentionDays` ago that no delivery
 * refers to any more: either they were routed nowhere, or all their
 * deliveries ended and were pruned above. An event awaiting expansion, or
 * with a delivery left (pending, or final but recent), stays.
 */
async function deleteSpentOutboxEvents(tx: EntityManager, batchSize: number, retentionDays: number): Promise<number> {
  const result = await tx.execute<{ affectedRows: number }>(
    `DELETE FROM alerts.outbox WHERE id IN (
       SELECT o.id FROM alerts.outbox o
        WHERE o.expanded_at IS NOT NULL
          AND o.expanded_at < now() - make_interval(days => ?)
          AND o.created_at < now() - make_interval(days => ?)
          AND NOT EXISTS (SELECT 1 FROM alerts.deliveries d WHERE d.outbox_id = o.id)
        ORDER BY o.id LIMIT ? FOR UPDATE SKIP LOCKED)`,
    [retentionDays, retentionDays, batchSize],
    "run",
  );
  return result.affectedRows;
}

/**
 * One retention run over the notification tables, deliveries first (an
 * outbox event goes only once no delivery refers to it). Alerts and
 * occurrences are the product's history and are never pruned. Safe to run
 * from every replica: they take turns on an advisory lock, and a repeated
 * delete finds nothing.
 */
export async function pruneNotifications(
  orm: Orm,
  options: BatchLimits & { retentionDays: number },
): Promise<NotificationPruneResult> {
  const { retentionDays } = options;
  const { skipped, deleted, more } = await deleteInBatchesInOrder(
    orm,
    ALERTS_RETENTION_LOCK,
    [
      (tx, batchSize) => deleteFinalDeliveries(tx, batchSize, retentionDays),
      (tx, batchSize) => deleteSpentOutboxEvents(tx, batchSize, retentionDays),
    ],
    options,
  );
  return { skipped, deliveries: deleted[0] ?? 0, outbox: deleted[1] ?? 0, more };
}
