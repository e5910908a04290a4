import { metrics } from "@opentelemetry/api";

/**
 * Business counters beside the HTTP and gRPC instruments: what SREs alert on
 * (a burst of invalid signatures, triggers folding instead of creating,
 * pings spooled during an outage). No-ops when telemetry is off.
 */
const meter = metrics.getMeter("pulsegate-gateway");

export const triggerOutcomes = meter.createCounter("pulsegate.triggers", {
  description: "Accepted alert triggers by outcome (created, occurrence_added, reopened, filtered).",
});

export const pingOutcomes = meter.createCounter("pulsegate.pings", {
  description: "Accepted pings by reported status and how they were stored (recorded, spooled).",
});

export const requestErrors = meter.createCounter("pulsegate.request.errors", {
  description: "Error answers by code (missing_signature, invalid_signature, rate_limited, ...).",
});
