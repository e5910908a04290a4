import { metrics } from "@pulsegate/telemetry";

/** The monitors service's domain counters (docs/operations.md); labels are fixed sets. No-ops when telemetry is off. */
const meter = metrics.getMeter("pulsegate-monitors");

/** Monitors the sweeper took down for a missed heartbeat. */
export const missedHeartbeats = meter.createCounter("pulsegate.monitors.missed_heartbeats", {
  description: "Monitors marked down by the sweeper for a missed heartbeat.",
});

/** Sweeper passes by result (ok, held: pings still in the spool, error). */
export const sweeps = meter.createCounter("pulsegate.monitors.sweeps", {
  description: "Missed-heartbeat sweeper passes by result (ok, held while the spool holds pings, error).",
});

/** Spooled pings applied by the drain, by result (applied, dead_lettered). */
export const spoolDrained = meter.createCounter("pulsegate.monitors.spool.drained", {
  description: "Spooled pings taken out of the spool by the drain, by result (applied, dead_lettered).",
});

let lastSweepSeconds = 0;

/** When the sweeper last completed a pass (seconds since the epoch; 0 before the first). */
export function sweepCompleted(at: Date = new Date()): void {
  lastSweepSeconds = at.getTime() / 1000;
}

meter
  .createObservableGauge("pulsegate.monitors.sweep.last_success.timestamp.seconds", {
    description: "When this replica's missed-heartbeat sweeper last completed a pass (Unix time; 0 before the first).",
    unit: "s",
  })
  .addCallback((observer) => observer.observe(lastSweepSeconds));
