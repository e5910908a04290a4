import type { Counter, Histogram, Meter, MetricOptions, ObservableGauge } from "@opentelemetry/api";
import { METRIC_DEFINITIONS, type MetricDefinition } from "./metric-catalogue.ts";

/**
 * Our instruments, created from their catalogue entry (metric-catalogue.ts):
 * the name is a literal of the catalogue, so a typo or a metric not catalogued
 * fails to compile, and description, unit and buckets are never written twice.
 */
type Ours = Exclude<(typeof METRIC_DEFINITIONS)[number], { createdBy: string }>;
export type CounterName = Extract<Ours, { type: "counter" }>["instrument"];
export type HistogramName = Extract<Ours, { type: "histogram" }>["instrument"];
export type GaugeName = Extract<Ours, { type: "gauge" }>["instrument"];

const BY_INSTRUMENT = new Map<string, MetricDefinition>(METRIC_DEFINITIONS.map((entry) => [entry.instrument, entry]));

function optionsOf(name: string): MetricOptions {
  const entry = BY_INSTRUMENT.get(name);
  if (!entry) throw new Error(`metric ${name} is not in the catalogue`);
  return {
    description: entry.description,
    ...(entry.unit !== undefined && { unit: entry.unit }),
    ...(entry.buckets !== undefined && { advice: { explicitBucketBoundaries: [...entry.buckets] } }),
  };
}

export function counterOf(meter: Meter, name: CounterName): Counter {
  return meter.createCounter(name, optionsOf(name));
}

export function histogramOf(meter: Meter, name: HistogramName): Histogram {
  return meter.createHistogram(name, optionsOf(name));
}

export function observableGaugeOf(meter: Meter, name: GaugeName): ObservableGauge {
  return meter.createObservableGauge(name, optionsOf(name));
}
