import { IDEMPOTENCY_LIMITS } from "@pulsegate/contract/limits";
import { type BatchLimits, deleteExpiredIdempotencyKeys, deleteInBatchesInOrder, type Orm } from "@pulsegate/db";
import { deleteDoneIncidentActions } from "./prune-incident-actions.ts";
import { oldPingBatches, PINGS_KEPT_PER_MONITOR } from "./prune-pings.ts";

export const MONITORS_RETENTION_LOCK = "pulsegate:retention:monitors";

export type MonitorHistoryRetention = BatchLimits & {
  pingRetentionDays: number;
  incidentActionRetentionDays: number;
  pingsKeptPerMonitor?: number;
};

export type MonitorHistoryPruneResult = {
  /** Another replica was pruning: nothing was done. */
  skipped: boolean;
  incidentActions: number;
  pings: number;
  idempotencyKeys: number;
  /** A cap was reached with rows left: run again soon. */
  more: boolean;
};

/**
 * One retention run: done incident actions, then old pings beyond each
 * monitor's newest, then idempotency keys older than a day. Monitors themselves are never pruned. Safe to run from
 * every replica: they take turns on an advisory lock, and a repeated delete
 * finds nothing.
 */
export async function pruneMonitorHistory(
  orm: Orm,
  options: MonitorHistoryRetention,
): Promise<MonitorHistoryPruneResult> {
  const { skipped, deleted, more } = await deleteInBatchesInOrder(
    orm,
    MONITORS_RETENTION_LOCK,
    [
      (tx, batchSize) => deleteDoneIncidentActions(tx, batchSize, options.incidentActionRetentionDays),
      oldPingBatches(options.pingRetentionDays, options.pingsKeptPerMonitor ?? PINGS_KEPT_PER_MONITOR),
      (tx, batchSize) => deleteExpiredIdempotencyKeys(tx, "monitors", batchSize, IDEMPOTENCY_LIMITS.keptHours),
    ],
    options,
  );
  return {
    skipped,
    incidentActions: deleted[0] ?? 0,
    pings: deleted[1] ?? 0,
    idempotencyKeys: deleted[2] ?? 0,
    more,
  };
}
