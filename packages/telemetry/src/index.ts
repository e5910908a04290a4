export { context, SpanStatusCode, trace } from "@opentelemetry/api";
export { shutdownTelemetry, startTelemetry } from "./start-telemetry.ts";
