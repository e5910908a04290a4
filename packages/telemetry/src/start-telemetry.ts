import { FastifyOtelInstrumentation } from "@fastify/otel";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { GrpcInstrumentation } from "@opentelemetry/instrumentation-grpc";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { PinoInstrumentation } from "@opentelemetry/instrumentation-pino";
import { NodeSDK } from "@opentelemetry/sdk-node";

let sdk: NodeSDK | undefined;

/**
 * Starts the OpenTelemetry SDK once per process. W3C trace context is the
 * SDK's default propagator, so traces cross HTTP and gRPC hops. Spans are
 * exported over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (the standard
 * OTEL_* variables apply); Prometheus metrics are served when METRICS_PORT is.
 */
export function startTelemetry(env: NodeJS.ProcessEnv = process.env): void {
  if (sdk || env.OTEL_SDK_DISABLED === "true") return;
  // Without an endpoint there is nowhere to send: the SDK's default would be
  // OTLP on localhost, failing every export. Explicit OTEL_*_EXPORTER wins.
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    env.OTEL_TRACES_EXPORTER ??= "none";
    env.OTEL_LOGS_EXPORTER ??= "none";
    env.OTEL_METRICS_EXPORTER ??= "none";
  }
  const metricsPort = Number(env.METRICS_PORT ?? 0);
  sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? "pulsegate",
    ...(env.OTEL_EXPORTER_OTLP_ENDPOINT ? { traceExporter: new OTLPTraceExporter() } : {}),
    ...(metricsPort > 0 ? { metricReaders: [new PrometheusExporter({ port: metricsPort })] } : {}),
    instrumentations: [
      new HttpInstrumentation(),
      new GrpcInstrumentation(),
      new PgInstrumentation(),
      new IORedisInstrumentation(),
      // Puts trace_id and span_id on every log line.
      new PinoInstrumentation(),
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
    ],
  });
  sdk.start();
}

export async function shutdownTelemetry(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}
