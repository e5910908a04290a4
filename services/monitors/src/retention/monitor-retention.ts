import type { Orm } from "@pulsegate/db";
import { type Periodic, periodic } from "@pulsegate/runtime/lifecycle";
import type { Logger } from "@pulsegate/runtime/logger";
import { pruneMonitorHistory } from "./prune-monitor-history.ts";

const FIRST_RUN_DELAY_MS = 60_000;

export type RetentionOptions = { pingRetentionDays: number; incidentActionRetentionDays: number; intervalMs: number };

/**
 * The periodic pruning of monitor history (un-started): every `intervalMs`,
 * the first time a minute after start, logging one line per run. A run that
 * hit its cap is followed at once by the next; `stop` ends a run between two
 * batches.
 */
export function monitorRetention(orm: Orm, log: Logger, options: RetentionOptions): Periodic {
  const { pingRetentionDays, incidentActionRetentionDays, intervalMs } = options;
  return periodic({
    name: "retention",
    intervalMs,
    firstRunDelayMs: Math.min(FIRST_RUN_DELAY_MS, intervalMs),
    log,
    task: async (signal) => {
      const started = performance.now();
      const result = await pruneMonitorHistory(orm, { pingRetentionDays, incidentActionRetentionDays, signal });
      if (result.skipped) {
        log.debug("retention run skipped: another replica is pruning");
        return false;
      }
      log.info(
        {
          incidentActions: result.incidentActions,
          pings: result.pings,
          idempotencyKeys: result.idempotencyKeys,
          pingRetentionDays,
          incidentActionRetentionDays,
          more: result.more,
          ms: Math.round(performance.now() - started),
        },
        "retention: monitor history pruned",
      );
      return result.more;
    },
  });
}
