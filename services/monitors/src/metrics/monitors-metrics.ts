import { counterOf, metrics, observableGaugeOf } from "@pulsegate/telemetry";

/**
 * The monitors service's domain counters (docs/operations.md; described in the metric catalogue,
 * @pulsegate/telemetry); labels are fixed sets. No-ops when telemetry is off.
 */
const meter = metrics.getMeter("pulsegate-monitors");

/** Monitors the sweeper took down for a missed heartbeat. */
export const missedHeartbeats = counterOf(meter, "pulsegate.monitors.missed_heartbeats");

/** Sweeper passes by result (ok, held: pings still in the spool, error). */
export const sweeps = counterOf(meter, "pulsegate.monitors.sweeps");

/** Spooled pings applied by the drain, by result (applied, dead_lettered). */
export const spoolDrained = counterOf(meter, "pulsegate.monitors.spool.drained");

let lastSweepSeconds = 0;

/** When the sweeper last completed a pass (seconds since the epoch; 0 before the first). */
export function sweepCompleted(at: Date = new Date()): void {
  lastSweepSeconds = at.getTime() / 1000;
}

observableGaugeOf(meter, "pulsegate.monitors.sweep.last_success.timestamp.seconds").addCallback((observer) =>
  observer.observe(lastSweepSeconds),
);
