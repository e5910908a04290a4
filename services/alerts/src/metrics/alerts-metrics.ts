import { counterOf, metrics } from "@pulsegate/telemetry";

/**
 * The alerts service's domain counters (docs/operations.md; described in the
 * metric catalogue, @pulsegate/telemetry). Labels are bounded: outcomes,
 * sources, results and channel kinds are fixed sets. No-ops when telemetry is off.
 */
const meter = metrics.getMeter("pulsegate-alerts");

/** Folded triggers by outcome (created, occurrence_added, reopened, quota_exhausted, invalid) and source (webhook, monitor). */
export const foldOutcomes = counterOf(meter, "pulsegate.alerts.triggers");

/** Delivery attempts by result (delivered, retry, failed) and channel kind. */
export const deliveryResults = counterOf(meter, "pulsegate.alerts.deliveries");

/** How a delivery attempt ended, for deliveryResults. */
export function deliveryResultOf(ok: boolean, status: string | null): "delivered" | "retry" | "failed" | "abandoned" {
  if (status === null) return "abandoned"; // another replica took over, or the channel went meanwhile
  if (ok) return "delivered";
  return status === "failed" ? "failed" : "retry";
}
