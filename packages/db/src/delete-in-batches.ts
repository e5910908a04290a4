import type { EntityManager } from "@mikro-orm/postgresql";
import type { Orm } from "./open-orm.ts";

export const RETENTION_BATCH_SIZE = 1_000;
/** Per table and run: the rest waits for the next run, so one run (and a shutdown waiting on it) stays bounded. */
export const RETENTION_MAX_BATCHES = 100;

export type BatchLimits = { batchSize?: number; maxBatches?: number; signal?: AbortSignal };

export type BatchOutcome = {
  deleted: number;
  /** Another replica holds the retention lock: it is pruning, this one stands aside. */
  contended: boolean;
  /** Stopped by the cap or the signal while full batches were still coming. */
  more: boolean;
};

/**
 * Repeats `deleteBatch` (a DELETE of at most `batchSize` rows, returning how
 * many went), each batch in a short transaction of its own, until a batch
 * comes back short, `maxBatches` have run or `signal` aborts. Each
 * transaction first tries a transaction-scoped advisory lock (never waits):
 * replicas take turns instead of deleting side by side, and no lock outlives
 * its batch. A session lock would not do: the pool hands out a different
 * connection per statement, and the embedded database shares one session.
 */
export async function deleteInBatches(
  orm: Orm,
  lockKey: string,
  deleteBatch: (tx: EntityManager, batchSize: number) => Promise<number>,
  limits: BatchLimits = {},
): Promise<BatchOutcome> {
  const batchSize = limits.batchSize ?? RETENTION_BATCH_SIZE;
  const maxBatches = limits.maxBatches ?? RETENTION_MAX_BATCHES;
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    if (limits.signal?.aborted) return { deleted, contended: false, more: true };
    const count = await orm.em.fork().transactional(async (tx) => {
      const [lock] = await tx.execute<{ locked: boolean }[]>(
        "SELECT pg_try_advisory_xact_lock(hashtext(?)) AS locked",
        [lockKey],
      );
      if (!lock?.locked) return null;
      // Queue behind nobody's DDL for long: give up, and try again next run.
      await tx.execute("SET LOCAL lock_timeout = '5s'");
      return deleteBatch(tx, batchSize);
    });
    if (count === null) return { deleted, contended: true, more: false };
    deleted += count;
    if (count < batchSize) return { deleted, contended: false, more: false };
  }
  return { deleted, contended: false, more: true };
}
