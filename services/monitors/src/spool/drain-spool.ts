import type { EntityManager, Orm } from "@pulsegate/db";
import type { Logger } from "@pulsegate/logger";
import type { LastKnownMonitors } from "../monitors/last-known-monitors.ts";
import { applyPing } from "../pings/apply-ping.ts";
import type { PingRecorder } from "../pings/record-pings.ts";
import { isDatabaseUnavailable } from "../runtime/database-unavailable.ts";
import type { PingSpool } from "./ping-spool.ts";

const BATCH = 100;
/** One lock holding drains at most this long, so the lock (30 s) never lapses mid-drain. */
const MAX_DRAIN_MS = 10_000;

/**
 * One drain pass: applies spooled pings oldest first, each in its own
 * transaction, and deletes each entry only after its commit. A ping applied
 * twice (the commit of the first attempt was uncertain, or the delete failed)
 * conflicts on its key and is skipped, so each is applied exactly once. Stops
 * at the first sign that the database is still away. Returns true when more
 * remains to drain.
 */
export async function drainSpool(deps: {
  orm: Orm;
  spool: PingSpool;
  recorder: PingRecorder;
  lastKnown: LastKnownMonitors;
  log: Logger;
  onIncident: () => void;
}): Promise<boolean> {
  const { orm, spool, recorder, lastKnown, log, onIncident } = deps;
  if (!spool.configured) return false;
  let backlog: number;
  try {
    backlog = await spool.length();
  } catch {
    return false; // Redis away: nothing to drain that we could read.
  }
  if (backlog === 0) {
    recorder.stopSpoolingIfIdle();
    return false;
  }
  // New pings queue up behind the backlog until it is gone.
  recorder.startSpooling("the spool holds pings");
  let more = false;
  const started = Date.now();
  await spool.withDrainLock(async () => {
    for (;;) {
      const entries = await spool.oldest(BATCH);
      if (entries.length === 0) return;
      for (const entry of entries) {
        try {
          const result = await applyPing(orm.em.fork() as EntityManager, entry.item, {
            spooled: true,
            now: new Date(),
          });
          if (result.outcome === "monitor_not_found") {
            log.error(
              { monitorId: entry.item.monitorId, entryId: entry.entryId },
              "spooled ping for an unknown monitor",
            );
            await spool.deadLetter(entry, "monitor_not_found");
            continue;
          }
          if ("monitor" in result) lastKnown.remember(result.monitor);
          if (result.outcome === "recorded" && result.incident) onIncident();
        } catch (error) {
          if (isDatabaseUnavailable(error)) throw error;
          log.error(
            { err: error, entryId: entry.entryId },
            "spooled ping cannot be applied; moved to the dead-letter stream",
          );
          await spool.deadLetter(entry, error instanceof Error ? error.message : String(error));
          continue;
        }
        await spool.remove(entry.entryId);
      }
      if (Date.now() - started > MAX_DRAIN_MS) {
        more = true;
        return;
      }
    }
  });
  if (!more && (await spool.length()) === 0) recorder.stopSpoolingIfIdle();
  return more;
}
