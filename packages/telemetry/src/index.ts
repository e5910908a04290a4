export { type Context, context, metrics, ROOT_CONTEXT, SpanStatusCode, trace } from "@opentelemetry/api";
export { inBackgroundSpan } from "./background-work.ts";
export { BatchAwareSampler, samplerFromEnv } from "./batch-aware-sampler.ts";
export { counterOf, histogramOf, observableGaugeOf } from "./instruments.ts";
export { serveMetrics } from "./metrics-server.ts";
export { GRPC_STATUS_NAMES, grpcStatusName } from "./rpc-span-conventions.ts";
export { shutdownTelemetry, startTelemetry } from "./start-telemetry.ts";
export { contextFromTraceparent, spanContextOf, traceparentOf } from "./trace-context.ts";
