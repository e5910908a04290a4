import { metrics } from "@opentelemetry/api";
import { histogramOf } from "@pulsegate/telemetry/instruments";

const meter = metrics.getMeter("pulsegate-grpc");

/**
 * RPC duration by method and status, the R, E and D of every gRPC service
 * (Prometheus: rpc_server_call_duration_seconds{rpc_method, rpc_response_status_code};
 * described in the metric catalogue, @pulsegate/telemetry). No-op when telemetry is off.
 */
export const rpcServerDuration = histogramOf(meter, "rpc.server.call.duration");

/** Repeated items per call of a batch RPC (TriggerAlert, RecordPing, VerifySignature…), as the service received them. */
export const rpcBatchSize = histogramOf(meter, "pulsegate.rpc.batch.size");
