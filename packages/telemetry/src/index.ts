export { startTelemetry, shutdownTelemetry } from "./start-telemetry.ts";
export { trace, context, SpanStatusCode } from "@opentelemetry/api";
