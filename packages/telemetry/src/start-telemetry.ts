import { FastifyOtelInstrumentation } from "@fastify/otel";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { GrpcInstrumentation } from "@opentelemetry/instrumentation-grpc";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { PinoInstrumentation } from "@opentelemetry/instrumentation-pino";
import { RuntimeNodeInstrumentation } from "@opentelemetry/instrumentation-runtime-node";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { NodeSDK, tracing } from "@opentelemetry/sdk-node";
import { BatchAwareSampler, samplerFromEnv } from "./batch-aware-sampler.ts";
import { isHealthMethod, isProbeRequest } from "./ignored-requests.ts";
import { metricViews } from "./metric-views.ts";
import { prometheusReaders } from "./metrics-server.ts";
import { RedactingSpanProcessor } from "./redacting-span-processor.ts";
import { serviceVersion, withServiceVersion } from "./service-version.ts";

let sdk: NodeSDK | undefined;

/**
 * A batch span links every request it carries (batch-per-turn.ts): up to 256
 * at the gateway, 500 at a service. The SDK's default keeps 128.
 */
const DEFAULT_LINK_COUNT_LIMIT = 512;

/**
 * Starts the OpenTelemetry SDK once per process. W3C trace context is the
 * SDK's default propagator, so traces cross HTTP and gRPC hops. Spans are
 * exported over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (the standard
 * OTEL_* variables apply); with METRICS_PORT set, serveMetrics() serves Prometheus metrics.
 * With neither (and OTEL_SDK_DISABLED not "false"), nothing would receive
 * what it records, so it does not start: its instrumentations cost about
 * 60 µs of CPU per request on the ping path (docs/performance.md).
 *
 * What makes no trace (docs/operations.md): probes and scrapes (/healthz,
 * /readyz, /metrics, grpc.health.v1), and database and Redis calls outside a
 * span, such as an idle poller's look for work; pollers that find work start
 * a span for it (inBackgroundSpan).
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
  env.OTEL_RESOURCE_ATTRIBUTES = withServiceVersion(env.OTEL_RESOURCE_ATTRIBUTES, serviceVersion(env));
  sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? "pulsegate",
    // Every exported span passes the redaction first (SQL literals, public URL tokens, outbound URLs).
    ...(exporting
      ? { spanProcessors: [new RedactingSpanProcessor(new tracing.BatchSpanProcessor(new OTLPTraceExporter()))] }
      : {}),
    sampler: new BatchAwareSampler(samplerFromEnv(env)),
    spanLimits: { linkCountLimit: Number(env.OTEL_SPAN_LINK_COUNT_LIMIT) || DEFAULT_LINK_COUNT_LIMIT },
    // Served once the service calls serveMetrics().
    ...prometheusReaders(env),
    views: metricViews(),
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: isProbeRequest }),
      new GrpcInstrumentation({ ignoreGrpcMethods: [isHealthMethod] }),
      // Only inside a span (a request, a delivery, a sweep that found work): an idle poller's query makes no trace.
      new PgInstrumentation({ requireParentSpan: true }),
      // Keys and arguments name ping URLs and carry spooled pings: the command alone is recorded.
      new IORedisInstrumentation({
        requireParentSpan: true,
        dbStatementSerializer: (command, args) => `${command}${" ?".repeat(args.length)}`,
      }),
      // Notification deliveries (undici); their URLs are redacted to the origin (RedactingSpanProcessor).
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // Event-loop delay and utilisation, heap, GC (metrics only).
      new RuntimeNodeInstrumentation(),
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
