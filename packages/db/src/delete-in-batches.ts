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
  deleteBatch: DeleteBatch,
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

export type DeleteBatch = (tx: EntityManager, batchSize: number) => Promise<number>;

export type InOrderOutcome = {
  /** Another replica held the lock from the start: nothing was done. */
  skipped: boolean;
  /** Rows deleted per step, in the order given (0 for a step not reached). */
  deleted: number[];
  /** A cap was reached with rows left: run again soon. */
  more: boolean;
};

/**
 * One retention run over tables that must be pruned in order (rows of a later one are spent only
 * once the earlier one's are gone), each step with deleteInBatches under the same lock key. When
 * another replica takes the lock, the run ends there: that replica carries on.
 */
export async function deleteInBatchesInOrder(
  orm: Orm,
  lockKey: string,
  steps: DeleteBatch[],
  limits: BatchLimits = {},
): Promise<InOrderOutcome> {
  const deleted = steps.map(() => 0);
  let more = false;
  for (const [index, step] of steps.entries()) {
    const outcome = await deleteInBatches(orm, lockKey, step, limits);
    deleted[index] = outcome.deleted;
    more ||= outcome.more;
    if (outcome.contended) return { skipped: index === 0 && outcome.deleted === 0, deleted, more };
  }
  return { skipped: false, deleted, more };
}

/**
 * A batch step from one statement that deletes at most `$n` rows and answers `SELECT count(*) AS n`
 * of what it deleted (a `WITH gone AS (DELETE … RETURNING 1)`), with its values for this batch size.
 */
export function countedDelete(sql: string, values: (batchSize: number) => unknown[]): DeleteBatch {
  return async (tx, batchSize) => {
    const [row] = await tx.execute<{ n: number }[]>(sql, values(batchSize));
    return Number(row?.n ?? 0);
  };
}

/** A deleted team is finished (purged_at) only this long after its deletion: stragglers of the moment go too. */
export const TEAM_PURGE_SETTLE_SECONDS = 300;
