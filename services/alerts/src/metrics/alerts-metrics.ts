import { metrics } from "@pulsegate/telemetry";

/**
 * The alerts service's domain counters (docs/operations.md). Labels are
 * bounded: outcomes, sources, results and channel kinds are fixed sets. No-ops
 * when telemetry is off.
 */
const meter = metrics.getMeter("pulsegate-alerts");

/** Folded triggers by outcome (created, occurrence_added, reopened, quota_exhausted, invalid) and source (webhook, monitor). */
export const foldOutcomes = meter.createCounter("pulsegate.alerts.triggers", {
  description:
    "Triggers folded into alerts, by outcome and source (filtered and unknown-source triggers are counted by the gateway).",
});

/** Delivery attempts by result (delivered, retry, failed) and channel kind. */
export const deliveryResults = meter.createCounter("pulsegate.alerts.deliveries", {
  description: "Notification delivery attempts by result (delivered, retry, failed) and channel kind.",
});

/** How a delivery attempt ended, for deliveryResults. */
export function deliveryResultOf(ok: boolean, status: string | null): "delivered" | "retry" | "failed" | "abandoned" {
  if (status === null) return "abandoned"; // another replica took over, or the channel went meanwhile
  if (ok) return "delivered";
  return status === "failed" ? "failed" : "retry";
}
