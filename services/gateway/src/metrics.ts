import { counterOf, histogramOf, metrics } from "@pulsegate/telemetry";

/**
 * Business counters beside the HTTP and gRPC instruments: what SREs alert on
 * (a burst of invalid signatures, triggers folding instead of creating,
 * pings spooled during an outage). Described in the metric catalogue
 * (@pulsegate/telemetry). No-ops when telemetry is off.
 */
const meter = metrics.getMeter("pulsegate-gateway");

export const triggerOutcomes = counterOf(meter, "pulsegate.triggers");
export const pingOutcomes = counterOf(meter, "pulsegate.pings");
export const requestErrors = counterOf(meter, "pulsegate.request.errors");
/** Items per coalesced hot-path call. */
export const batchSizes = histogramOf(meter, "pulsegate.gateway.batch.size");
/** Time from sending a coalesced hot-path call to its answer. */
export const batchDurations = histogramOf(meter, "pulsegate.gateway.batch.duration.seconds");
