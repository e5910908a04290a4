import type { Orm } from "@pulsegate/db";
import { withTimeout } from "@pulsegate/runtime/lifecycle";
import type { Logger } from "@pulsegate/runtime/logger";
import { metrics, observableGaugeOf } from "@pulsegate/telemetry";
import type { PingSpool } from "../spool/ping-spool.ts";
import { selectMonitorCounts } from "./select-monitor-counts.ts";

const meter = metrics.getMeter("pulsegate-monitors");

/** A scrape never waits longer than this for the database or Redis. */
const READ_TIMEOUT_MS = 2_000;

const STATUSES = ["idle", "up", "down", "paused"];

/**
 * Observable gauges read at scrape time, outside any span (no trace):
 * monitors by status (pulsegate_monitors{status}, the database's
 * numbers: take max() across replicas), and the ping spool's depth and the
 * age of its oldest entry, which is how far the drain lags
 * (pulsegate_monitors_spool_depth, pulsegate_monitors_spool_oldest_age_seconds).
 * A failed or slow read leaves its gauges out of that scrape.
 */
export function observeMonitors(orm: Orm, spool: PingSpool, log: Logger): void {
  const byStatus = observableGaugeOf(meter, "pulsegate.monitors");
  const depth = observableGaugeOf(meter, "pulsegate.monitors.spool.depth");
  const oldestAge = observableGaugeOf(meter, "pulsegate.monitors.spool.oldest.age.seconds");
  meter.addBatchObservableCallback(
    async (observer) => {
      const [counts, spooled] = await Promise.allSettled([
        withTimeout(selectMonitorCounts(orm.em.fork()), READ_TIMEOUT_MS),
        spool.configured ? withTimeout(spool.backlog(), READ_TIMEOUT_MS) : Promise.resolve(null),
      ]);
      if (counts.status === "fulfilled") {
        const found = counts.value;
        for (const status of new Set([...STATUSES, ...found.keys()])) {
          observer.observe(byStatus, found.get(status) ?? 0, { status });
        }
      } else log.debug({ err: counts.reason }, "monitors metrics: counts not read");
      if (spooled.status === "fulfilled" && spooled.value) {
        observer.observe(depth, spooled.value.depth);
        observer.observe(oldestAge, spooled.value.oldestAgeSeconds);
      } else if (spooled.status === "rejected") log.debug({ err: spooled.reason }, "monitors metrics: spool not read");
    },
    [byStatus, depth, oldestAge],
  );
}
