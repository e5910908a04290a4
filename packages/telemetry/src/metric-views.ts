import { AggregationType, type ViewOptions } from "@opentelemetry/sdk-metrics";
import { METRIC_DEFINITIONS } from "./metric-catalogue.ts";
import { nameWithUnit } from "./prometheus-name.ts";

/**
 * The library instruments exported but not catalogued (no dashboard or alert
 * uses them: Node's runtime, the PostgreSQL client), with their units: like the catalogued ones, they are renamed to
 * carry their unit in Prometheus (prometheus-name.ts).
 */
const UNCATALOGUED: Record<string, string[]> = {
  s: [
    "nodejs.eventloop.delay.min",
    "nodejs.eventloop.delay.max",
    "nodejs.eventloop.delay.mean",
    "nodejs.eventloop.delay.stddev",
    "nodejs.eventloop.delay.p50",
    "nodejs.eventloop.delay.p90",
    "nodejs.eventloop.time",
    "v8js.gc.duration",
    "db.client.operation.duration",
  ],
  By: [
    "v8js.memory.heap.limit",
    "v8js.memory.heap.space.available_size",
    "v8js.memory.heap.space.physical_size",
    "v8js.memory.heap.space.size",
  ],
};

/**
 * Library instruments whose Prometheus name would end in `_count`, which
 * Prometheus keeps for a histogram's series (`promtool check metrics` refuses
 * it on a gauge): each is renamed to the name the semantic conventions gave
 * the same metric before theirs (db.client.connections.usage, which
 * db.client.connection.count replaced; labelled by state, idle or used, and
 * by pool).
 */
const RESERVED_SUFFIX: Record<string, string> = {
  "db.client.connection.count": "db.client.connections.usage",
};

/**
 * Dropped: outbound HTTP durations are labelled by destination host, one
 * series per notification receiver (unbounded); deliveries are counted by
 * result instead (pulsegate_alerts_deliveries_total).
 */
const DROPPED = ["http.client.request.duration"];

/**
 * Renames the instruments whose names lack their unit (the instrumentations', and
 * rpc.server.call.duration), and those that would end in `_count`.
 */
function renamed(): ViewOptions[] {
  const instruments: { instrument: string; unit?: string }[] = [
    ...METRIC_DEFINITIONS,
    ...Object.entries(UNCATALOGUED).flatMap(([unit, names]) => names.map((instrument) => ({ instrument, unit }))),
  ];
  const byUnit = instruments.flatMap(({ instrument, unit }): ViewOptions[] => {
    const name = nameWithUnit(instrument, unit);
    return name === instrument ? [] : [{ instrumentName: instrument, name }];
  });
  return [
    ...byUnit,
    ...Object.entries(RESERVED_SUFFIX).map(([instrumentName, name]): ViewOptions => ({ instrumentName, name })),
  ];
}

export function metricViews(): ViewOptions[] {
  return [
    ...renamed(),
    ...DROPPED.map((instrumentName): ViewOptions => ({ instrumentName, aggregation: { type: AggregationType.DROP } })),
  ];
}
