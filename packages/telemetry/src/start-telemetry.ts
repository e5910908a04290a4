import { DiagConsoleLogger, diag, metrics, trace } from "@opentelemetry/api";
import { diagLogLevelFromString } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { BatchAwareSampler, samplerFromEnv } from "./batch-aware-sampler.ts";
import { registerContextPropagation } from "./context-propagation.ts";
import { libraryInstrumentations } from "./library-instrumentations.ts";
import { observeLiveHeap } from "./live-heap.ts";
import { metricViews } from "./metric-views.ts";
import { prometheusReaders } from "./metrics-server.ts";
import { RedactingSpanProcessor } from "./redacting-span-processor.ts";
import { serviceVersion, withServiceVersion } from "./service-version.ts";
import { telemetryResource } from "./telemetry-resource.ts";

let providers: { tracer?: NodeTracerProvider; meter?: MeterProvider } | undefined;

/**
 * A batch span links every request it carries (batch-per-turn.ts): up to 256
 * at the gateway, 500 at a service. The SDK's default keeps 128.
 */
const DEFAULT_LINK_COUNT_LIMIT = 512;

/**
 * Starts OpenTelemetry once per process, from the SDK's parts rather than its
 * all-in-one NodeSDK, which installs every exporter and propagator there is
 * (docs/decisions.md). Spans are exported over OTLP/HTTP when
 * OTEL_EXPORTER_OTLP_ENDPOINT (or its _TRACES_ form) is set, the standard
 * OTEL_* variables applying; with METRICS_PORT set, serveMetrics() serves
 * Prometheus metrics. With neither (and OTEL_SDK_DISABLED not "false"),
 * nothing would receive what it records, so it does not start: its
 * instrumentations cost about 60 µs of CPU per request on the ping path
 * (docs/performance.md).
 *
 * What makes no trace (docs/operations.md): probes and scrapes (/healthz,
 * /readyz, /metrics, grpc.health.v1), and database and Redis calls outside a
 * span, such as an idle poller's look for work; pollers that find work start
 * a span for it (inBackgroundSpan).
 */
export function startTelemetry(env: NodeJS.ProcessEnv = process.env): void {
  if (providers || env.OTEL_SDK_DISABLED === "true") return;
  const exporting = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (!exporting && !(Number(env.METRICS_PORT ?? 0) > 0) && env.OTEL_SDK_DISABLED !== "false") return;
  if (env.OTEL_LOG_LEVEL)
    diag.setLogger(new DiagConsoleLogger(), { logLevel: diagLogLevelFromString(env.OTEL_LOG_LEVEL) });
  // Checked whether or not spans are exported: a misspelt sampler stops the start.
  const sampler = new BatchAwareSampler(samplerFromEnv(env));
  const readers = prometheusReaders(env);
  // The environment detector reads OTEL_RESOURCE_ATTRIBUTES, so the version goes there.
  env.OTEL_RESOURCE_ATTRIBUTES = withServiceVersion(env.OTEL_RESOURCE_ATTRIBUTES, serviceVersion(env));
  const resource = telemetryResource(env.OTEL_SERVICE_NAME ?? "pulsegate");
  registerContextPropagation();
  providers = {};
  if (readers.length > 0) {
    // Served once the service calls serveMetrics().
    providers.meter = new MeterProvider({ resource, views: metricViews(), readers });
    metrics.setGlobalMeterProvider(providers.meter);
    observeLiveHeap();
  }
  if (exporting) {
    providers.tracer = new NodeTracerProvider({
      resource,
      sampler,
      spanLimits: { linkCountLimit: Number(env.OTEL_SPAN_LINK_COUNT_LIMIT) || DEFAULT_LINK_COUNT_LIMIT },
      // Every exported span passes the redaction first (SQL literals, public URL tokens, outbound URLs).
      spanProcessors: [new RedactingSpanProcessor(new BatchSpanProcessor(new OTLPTraceExporter()))],
    });
    trace.setGlobalTracerProvider(providers.tracer);
  }
  // After the providers: each instrumentation takes the global ones as it is registered.
  registerInstrumentations({ instrumentations: libraryInstrumentations() });
}

export async function shutdownTelemetry(): Promise<void> {
  await Promise.all([providers?.tracer?.shutdown(), providers?.meter?.shutdown()]);
  providers = undefined;
}
