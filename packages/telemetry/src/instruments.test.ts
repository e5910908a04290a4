import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { afterAll, describe, expect, it } from "vitest";
import {
  type CounterName,
  counterOf,
  type GaugeName,
  type HistogramName,
  histogramOf,
  observableGaugeOf,
} from "./instruments.ts";
import { METRIC_CATALOGUE } from "./metric-catalogue.ts";
import { metricViews } from "./metric-views.ts";

const reader = new PrometheusExporter({ preventServerStart: true });
const provider = new MeterProvider({ views: metricViews(), readers: [reader] });
const meter = provider.getMeter("instruments-test");
afterAll(() => provider.shutdown());

/** Our instruments, each created by its factory and recorded once, as Prometheus scrapes them. */
async function scrapeOurs(): Promise<string> {
  for (const entry of METRIC_CATALOGUE.filter((entry) => entry.createdBy === undefined)) {
    if (entry.type === "counter") counterOf(meter, entry.instrument as CounterName).add(1);
    else if (entry.type === "histogram") histogramOf(meter, entry.instrument as HistogramName).record(3);
    else observableGaugeOf(meter, entry.instrument as GaugeName).addCallback((observer) => observer.observe(1));
  }
  const { resourceMetrics } = await reader.collect();
  return new PrometheusSerializer().serialize(resourceMetrics);
}

describe("instruments from the catalogue", () => {
  it("export each of our metrics under its catalogue name, type, description, unit and buckets", async () => {
    const text = await scrapeOurs();
    const ours = METRIC_CATALOGUE.filter((entry) => entry.createdBy === undefined);
    expect(ours.length).toBeGreaterThan(15);
    for (const entry of ours) {
      expect(text).toContain(`# HELP ${entry.name} ${entry.description}\n`);
      expect(text).toContain(`# TYPE ${entry.name} ${entry.type}\n`);
      if (entry.unit) expect(text).toContain(`# UNIT ${entry.name} ${entry.unit}\n`);
      if (entry.buckets) {
        const bounds = [...text.matchAll(new RegExp(`^${entry.name}_bucket\\{.*le="([^"]+)"`, "gm"))].map((m) => m[1]);
        expect(bounds).toEqual([...entry.buckets.map(String), "+Inf"]);
      }
    }
  });

  it("refuses a name the catalogue does not have (the types already do)", () => {
    expect(() => counterOf(meter, "pulsegate.trigers" as CounterName)).toThrow(/pulsegate.trigers/);
  });
});
