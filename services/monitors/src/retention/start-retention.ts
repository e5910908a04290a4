import type { Orm } from "@pulsegate/db";
import type { Logger } from "@pulsegate/logger";
import { type Periodic, startPeriodic } from "../runtime/periodic.ts";
import { pruneMonitorHistory } from "./prune-monitor-history.ts";

const FIRST_RUN_DELAY_MS = 60_000;

export type RetentionOptions = { pingRetentionDays: number; incidentActionRetentionDays: number; intervalMs: number };

/**
 * Prunes monitor history every `intervalMs`, the first time a minute after
 * start, logging one line per run. A run that hit its cap is followed at
 * once by the next; `stop` ends a run between two batches.
 */
export function startRetention(orm: Orm, log: Logger, options: RetentionOptions): Periodic {
  const { pingRetentionDays, incidentActionRetentionDays, intervalMs } = options;
  const abort = new AbortController();
  const loop = startPeriodic(
    "retention",
    intervalMs,
    async () => {
      const started = performance.now();
      const result = await pruneMonitorHistory(orm, {
        pingRetentionDays,
        incidentActionRetentionDays,
        signal: abort.signal,
      });
      if (result.skipped) {
        log.debug("retention run skipped: another replica is pruning");
        return false;
      }
      log.info(
        {
          incidentActions: result.incidentActions,
          pings: result.pings,
          pingRetentionDays,
          incidentActionRetentionDays,
          more: result.more,
          ms: Math.round(performance.now() - started),
        },
        "retention: monitor history pruned",
      );
      return result.more && !abort.signal.aborted;
    },
    log,
  );
  const first = setTimeout(() => loop.kick(), Math.min(FIRST_RUN_DELAY_MS, intervalMs));
  first.unref();
  return {
    kick: () => loop.kick(),
    stop: async () => {
      abort.abort();
      clearTimeout(first);
      await loop.stop();
    },
  };
}
