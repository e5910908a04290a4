import type { Orm } from "@pulsegate/db";
import { type Periodic, periodic } from "@pulsegate/runtime/lifecycle";
import type { Logger } from "@pulsegate/runtime/logger";
import { pruneNotifications } from "./prune-notifications.ts";

const FIRST_RUN_DELAY_MS = 60_000;

/** The periodic pruning of deliveries and outbox events (un-started), logging one line per run. */
export function notificationRetention(
  orm: Orm,
  log: Logger,
  options: { retentionDays: number; intervalMs: number },
): Periodic {
  const { retentionDays, intervalMs } = options;
  return periodic({
    name: "notification retention",
    log,
    intervalMs,
    firstRunDelayMs: Math.min(FIRST_RUN_DELAY_MS, intervalMs),
    task: async (signal) => {
      const started = performance.now();
      const result = await pruneNotifications(orm, { retentionDays, signal });
      if (result.skipped) {
        log.debug("retention run skipped: another replica is pruning");
        return false;
      }
      log.info(
        {
          deliveries: result.deliveries,
          outbox: result.outbox,
          idempotencyKeys: result.idempotencyKeys,
          retentionDays,
          more: result.more,
          ms: Math.round(performance.now() - started),
        },
        "retention: notification history pruned",
      );
      return result.more;
    },
  });
}
