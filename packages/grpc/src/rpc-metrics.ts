import { metrics } from "@opentelemetry/api";

const meter = metrics.getMeter("pulsegate-grpc");

/**
 * RPC duration by method and status, the R, E and D of every gRPC service
 * (semantic conventions' rpc.server.call.duration; Prometheus:
 * rpc_server_call_duration_seconds{rpc_method, rpc_response_status_code}).
 * Both labels are bounded: only registered methods reach a handler, and
 * statuses are gRPC's seventeen names. No-op when telemetry is off.
 */
export const rpcServerDuration = meter.createHistogram("rpc.server.call.duration", {
  description: "Duration of gRPC calls served, by method and status.",
  unit: "s",
  advice: {
    explicitBucketBoundaries: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  },
});

/** Repeated items per call of a batch RPC (TriggerAlert, RecordPing, VerifySignature…), as the service received them. */
export const rpcBatchSize = meter.createHistogram("pulsegate.rpc.batch.size", {
  description: "Items per call of a batch RPC, as served.",
  unit: "{item}",
  advice: { explicitBucketBoundaries: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512] },
});
