import type { PgPool } from "@pulsegate/db";
import { reportSetAside, setAsideReason } from "@pulsegate/grpc";
import type { Logger } from "@pulsegate/runtime/logger";
import { isTransientError } from "@pulsegate/runtime/transient-error";
import { inBackgroundSpan } from "@pulsegate/telemetry";
import { spoolDrained } from "../metrics/monitors-metrics.ts";
import type { LastKnownMonitors } from "../monitors/last-known-monitors.ts";
import { type ApplyResult, applyPingBatch } from "../pings/apply-ping-batch.ts";
import type { PingRecorder } from "../pings/record-pings.ts";
import type { PingSpool, SpoolEntry, UnreadableSpoolEntry } from "./ping-spool.ts";

const BATCH = 100;
/** One lock holding drains at most this long, so the lock (30 s) never lapses mid-drain. */
const MAX_DRAIN_MS = 10_000;

export type DrainDeps = {
  pool: PgPool;
  spool: PingSpool;
  recorder: PingRecorder;
  lastKnown: LastKnownMonitors;
  log: Logger;
  onIncident: () => void;
};

/**
 * One drain pass: applies spooled pings oldest first, a batch of them per
 * transaction through the ping path's own write (applyPingBatch), and deletes
 * the entries only after that commit. A ping applied twice (the first commit
 * was uncertain, or the deletion was lost) is found by its key and applied
 * once. Stops at the first sign that the database is still away. Returns true
 * when more remains to drain.
 */
export async function drainSpool(deps: DrainDeps): Promise<boolean> {
  const { spool, recorder } = deps;
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
  // Only a spool with pings in it makes a trace: the drain's statements and log lines belong to it.
  return inBackgroundSpan("spool drain", { attributes: { "pulsegate.spool.backlog": backlog } }, () =>
    drainBacklog(deps),
  );
}

async function drainBacklog(deps: DrainDeps): Promise<boolean> {
  const { spool, recorder } = deps;
  // New pings queue up behind the backlog until it is gone.
  recorder.startSpooling("the spool holds pings");
  let more = false;
  const started = Date.now();
  await spool.withDrainLock(async () => {
    for (;;) {
      const { entries, unreadable } = await spool.oldest(BATCH);
      if (entries.length === 0 && unreadable.length === 0) return;
      for (const entry of unreadable) await setAside(deps, entry, "unreadable");
      if (entries.length > 0) await applyEntries(deps, entries);
      if (Date.now() - started > MAX_DRAIN_MS) {
        more = true;
        return;
      }
    }
  });
  if (!more && (await spool.length()) === 0) recorder.stopSpoolingIfIdle();
  return more;
}

/** Applies `entries` in one transaction, or one by one when the batch fails for a reason of its own. */
async function applyEntries(deps: DrainDeps, entries: SpoolEntry[]): Promise<void> {
  const { pool, spool } = deps;
  let applied: ApplyResult[];
  try {
    applied = await applyPingBatch(
      pool,
      entries.map((entry) => entry.item),
      { spooled: true, now: new Date() },
    );
  } catch (error) {
    if (isTransientError(error)) throw error;
    if (entries.length > 1) {
      for (const entry of entries) await applyEntries(deps, [entry]);
      return;
    }
    await setAside(deps, entries[0] as SpoolEntry, setAsideReason(error));
    return;
  }
  const done: string[] = [];
  for (const [index, result] of applied.entries()) {
    const entry = entries[index] as SpoolEntry;
    if (result.outcome === "monitor_not_found") {
      await setAside(deps, entry, "monitor_not_found");
      continue;
    }
    if ("monitor" in result) deps.lastKnown.remember(result.monitor);
    if (result.outcome === "recorded" && result.incidentActionId !== null) deps.onIncident();
    done.push(entry.entryId);
  }
  await spool.remove(done);
  spoolDrained.add(done.length, { result: "applied" });
}

/**
 * An entry that can never be applied (no ping, a ping the database refuses, a monitor that is
 * gone) moves to the dead-letter stream with the reason, counted and logged once (ids only), so
 * the pings behind it are applied.
 */
async function setAside(deps: DrainDeps, entry: SpoolEntry | UnreadableSpoolEntry, reason: string): Promise<void> {
  await deps.spool.deadLetter(entry, reason);
  spoolDrained.add(1, { result: "dead_lettered" });
  const ids: Record<string, string> =
    "item" in entry ? { monitorId: entry.item.monitorId, pingId: entry.item.pingId } : {};
  reportSetAside(deps.log, "ping_spool", { entryId: entry.entryId, ...ids }, reason);
}
