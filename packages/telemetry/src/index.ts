export { context, SpanStatusCode, trace } from "@opentelemetry/api";
export { serveMetrics } from "./metrics-server.ts";
export { shutdownTelemetry, startTelemetry } from "./start-telemetry.ts";
