// Imported first (a bare import) by a test that reads the counters of the code it runs in its own
// process: the instruments are created when their modules load, from the global meter provider
// of that moment, so this provider must be registered before them.
import { metrics } from "@opentelemetry/api";
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { afterAll } from "vitest";
import { sampleSum } from "./prometheus.ts";

const reader = new PrometheusExporter({ preventServerStart: true });
const provider = new MeterProvider({ readers: [reader] });
if (!metrics.setGlobalMeterProvider(provider)) {
  throw new Error("a global meter provider was already registered: import in-process-metrics.ts first");
}
afterAll(() => provider.shutdown());

/** A counter of this process now, as Prometheus would scrape it (see sampleSum). */
export async function inProcessCounter(name: string, labels: Record<string, string> = {}): Promise<number> {
  const { resourceMetrics } = await reader.collect();
  return sampleSum(new PrometheusSerializer().serialize(resourceMetrics), name, labels);
}
