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

export const batchSizes = meter.createHistogram("pulsegate.gateway.batch.size", {
  description: "Items per coalesced hot-path call (VerifySignature, TriggerAlert, RecordPing, ResolveMonitors).",
  unit: "{item}",
  advice: { explicitBucketBoundaries: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512] },
});

export const batchDurations = meter.createHistogram("pulsegate.gateway.batch.duration.seconds", {
  description: "Time from sending a coalesced hot-path call to its answer.",
  unit: "s",
  advice: { explicitBucketBoundaries: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] },
});
