import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";

let metrics: { exporter: PrometheusExporter; port: number } | undefined;

/**
 * The Prometheus reader for METRICS_PORT (none when unset or 0), created
 * without its server: serveMetrics() binds it, so that a port that cannot be
 * bound stops the service instead of leaving it without metrics in silence.
 */
export function prometheusReaders(env: NodeJS.ProcessEnv): PrometheusExporter[] {
  const port = Number(env.METRICS_PORT || 0);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`Invalid configuration:\n  METRICS_PORT: must be a port number, got "${env.METRICS_PORT}"`);
  }
  if (port === 0) return [];
  metrics = { exporter: new PrometheusExporter({ port, preventServerStart: true }), port };
  return [metrics.exporter];
}

/**
 * Serves /metrics on METRICS_PORT, if the telemetry has a Prometheus reader;
 * resolves to the port. Rejects with the port named when it cannot listen
 * there (in use, no permission): a service calls it first and stops on it.
 */
export async function serveMetrics(): Promise<number | undefined> {
  if (!metrics) return undefined;
  try {
    await metrics.exporter.startServer();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new Error(`METRICS_PORT ${metrics.port}: cannot serve Prometheus metrics there (${code ?? message})`);
  }
  return metrics.port;
}
