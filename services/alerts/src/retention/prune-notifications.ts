import { IDEMPOTENCY_LIMITS } from "@pulsegate/contract/limits";
import { type BatchLimits, deleteExpiredIdempotencyKeys, deleteInBatchesInOrder, type Orm } from "@pulsegate/db";
import { deleteFinalDeliveries } from "./delete-final-deliveries.ts";
import { deleteSpentOutboxEvents } from "./delete-spent-outbox-events.ts";

export const ALERTS_RETENTION_LOCK = "pulsegate:retention:alerts";

export type NotificationPruneResult = {
  /** Another replica was pruning: nothing was done. */
  skipped: boolean;
  deliveries: number;
  outbox: number;
  idempotencyKeys: number;
  /** A cap was reached with rows left: run again soon. */
  more: boolean;
};

/**
 * One retention run over the notification tables, deliveries first (an
 * outbox event goes only once no delivery refers to it), then idempotency
 * keys older than a day. Alerts and
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
      (tx, batchSize) => deleteExpiredIdempotencyKeys(tx, "alerts", batchSize, IDEMPOTENCY_LIMITS.keptHours),
    ],
    options,
  );
  return {
    skipped,
    deliveries: deleted[0] ?? 0,
    outbox: deleted[1] ?? 0,
    idempotencyKeys: deleted[2] ?? 0,
    more,
  };
}
