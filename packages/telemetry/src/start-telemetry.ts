import { FastifyOtelInstrumentation } from "@fastify/otel";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { GrpcInstrumentation } from "@opentelemetry/instrumentation-grpc";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { PinoInstrumentation } from "@opentelemetry/instrumentation-pino";
import { NodeSDK, tracing } from "@opentelemetry/sdk-node";
import { prometheusReaders } from "./metrics-server.ts";
import { RedactingSpanProcessor } from "./redacting-span-processor.ts";

let sdk: NodeSDK | undefined;

/**
 * Starts the OpenTelemetry SDK once per process. W3C trace context is the
 * SDK's default propagator, so traces cross HTTP and gRPC hops. Spans are
 * exported over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (the standard
 * OTEL_* variables apply); with METRICS_PORT set, serveMetrics() serves Prometheus metrics.
 * With neither (and OTEL_SDK_DISABLED not "false"), nothing would receive
 * what it records, so it does not start: its instrumentations cost about
 * 60 µs of CPU per request on the ping path (docs/performance.md).
 */
export function startTelemetry(env: NodeJS.ProcessEnv = process.env): void {
  if (sdk || env.OTEL_SDK_DISABLED === "true") return;
  const exporting = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (!exporting && !(Number(env.METRICS_PORT ?? 0) > 0) && env.OTEL_SDK_DISABLED !== "false") return;
  // Without an endpoint there is nowhere to send: the SDK's default would be
  // OTLP on localhost, failing every export. Explicit OTEL_*_EXPORTER wins.
  if (!exporting) {
    env.OTEL_TRACES_EXPORTER ??= "none";
    env.OTEL_LOGS_EXPORTER ??= "none";
    env.OTEL_METRICS_EXPORTER ??= "none";
  }
  sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? "pulsegate",
    // Every exported span passes the redaction first (SQL literals, public URL tokens).
    ...(exporting
      ? { spanProcessors: [new RedactingSpanProcessor(new tracing.BatchSpanProcessor(new OTLPTraceExporter()))] }
      : {}),
    // Served once the service calls serveMetrics().
    ...prometheusReaders(env),
    instrumentations: [
      new HttpInstrumentation(),
      new GrpcInstrumentation(),
      new PgInstrumentation(),
      // Keys and arguments name ping URLs and carry spooled pings: the command alone is recorded.
      new IORedisInstrumentation({ dbStatementSerializer: (command, args) => `${command}${" ?".repeat(args.length)}` }),
      // Puts trace_id and span_id on every log line.
      new PinoInstrumentation(),
      // The request span only: a child span per lifecycle hook and handler cost every request tens of
      // microseconds and told an SRE nothing the request span does not (bench: docs/performance.md).
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        instrumentHooks: false,
        instrumentHandler: false,
      }),
    ],
  });
  sdk.start();
}

export async function shutdownTelemetry(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}
