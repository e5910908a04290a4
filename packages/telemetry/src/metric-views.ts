import { metrics as sdkMetrics } from "@opentelemetry/sdk-node";
import { METRIC_DEFINITIONS } from "./metric-catalogue.ts";
import { nameWithUnit } from "./prometheus-name.ts";

type ViewOptions = sdkMetrics.ViewOptions;

/**
 * The runtime instruments exported but not catalogued (no dashboard or alert
 * uses them), with their units: like the catalogued ones, they are renamed to
 * carry their unit in Prometheus (prometheus-name.ts).
 */
const UNCATALOGUED: { instrument: string; unit: string }[] = [
  { instrument: "nodejs.eventloop.delay.min", unit: "s" },
  { instrument: "nodejs.eventloop.delay.max", unit: "s" },
  { instrument: "nodejs.eventloop.delay.mean", unit: "s" },
  { instrument: "nodejs.eventloop.delay.stddev", unit: "s" },
  { instrument: "nodejs.eventloop.delay.p50", unit: "s" },
  { instrument: "nodejs.eventloop.delay.p90", unit: "s" },
  { instrument: "nodejs.eventloop.time", unit: "s" },
  { instrument: "v8js.gc.duration", unit: "s" },
  { instrument: "v8js.memory.heap.limit", unit: "By" },
  { instrument: "v8js.memory.heap.space.available_size", unit: "By" },
  { instrument: "v8js.memory.heap.space.physical_size", unit: "By" },
  { instrument: "v8js.memory.heap.space.size", unit: "By" },
];

/**
 * Dropped: outbound HTTP durations are labelled by destination host, one
 * series per notification receiver (unbounded); deliveries are counted by
 * result instead (pulsegate_alerts_deliveries_total).
 */
const DROPPED = ["http.client.request.duration"];

/** Renames the instruments whose names lack their unit (the instrumentations', and rpc.server.call.duration). */
function renamed(): ViewOptions[] {
  const instruments: { instrument: string; unit?: string }[] = [...METRIC_DEFINITIONS, ...UNCATALOGUED];
  return instruments.flatMap(({ instrument, unit }): ViewOptions[] => {
    const name = nameWithUnit(instrument, unit);
    return name === instrument ? [] : [{ instrumentName: instrument, name }];
  });
}

export function metricViews(): ViewOptions[] {
  return [
    ...renamed(),
    ...DROPPED.map(
      (instrumentName): ViewOptions => ({ instrumentName, aggregation: { type: sdkMetrics.AggregationType.DROP } }),
    ),
  ];
}
