import { metrics as sdkMetrics } from "@opentelemetry/sdk-node";

type ViewOptions = sdkMetrics.ViewOptions;

/**
 * Prometheus names carry their unit (`_seconds`, `_bytes`; counters get
 * `_total` from the exporter), but the exporter does not add it and the
 * instrumentations name their instruments without it. These views rename
 * what the services export; our own instruments are named with it already.
 */
const RENAMED: [string, string][] = [
  ["http.server.request.duration", "http.server.request.duration.seconds"],
  ["rpc.server.call.duration", "rpc.server.call.duration.seconds"],
  ["nodejs.eventloop.delay.min", "nodejs.eventloop.delay.min.seconds"],
  ["nodejs.eventloop.delay.max", "nodejs.eventloop.delay.max.seconds"],
  ["nodejs.eventloop.delay.mean", "nodejs.eventloop.delay.mean.seconds"],
  ["nodejs.eventloop.delay.stddev", "nodejs.eventloop.delay.stddev.seconds"],
  ["nodejs.eventloop.delay.p50", "nodejs.eventloop.delay.p50.seconds"],
  ["nodejs.eventloop.delay.p90", "nodejs.eventloop.delay.p90.seconds"],
  ["nodejs.eventloop.delay.p99", "nodejs.eventloop.delay.p99.seconds"],
  ["nodejs.eventloop.time", "nodejs.eventloop.time.seconds"],
  ["nodejs.eventloop.utilization", "nodejs.eventloop.utilization.ratio"],
  ["v8js.gc.duration", "v8js.gc.duration.seconds"],
  ["v8js.memory.heap.limit", "v8js.memory.heap.limit.bytes"],
  ["v8js.memory.heap.used", "v8js.memory.heap.used.bytes"],
  ["v8js.memory.heap.space.available_size", "v8js.memory.heap.space.available_size.bytes"],
  ["v8js.memory.heap.space.physical_size", "v8js.memory.heap.space.physical_size.bytes"],
  ["v8js.memory.heap.space.size", "v8js.memory.heap.space.size.bytes"],
];

/**
 * Dropped: outbound HTTP durations are labelled by destination host, one
 * series per notification receiver (unbounded); deliveries are counted by
 * result instead (pulsegate_alerts_deliveries_total).
 */
const DROPPED = ["http.client.request.duration"];

export function metricViews(): ViewOptions[] {
  return [
    ...RENAMED.map(([instrumentName, name]): ViewOptions => ({ instrumentName, name })),
    ...DROPPED.map(
      (instrumentName): ViewOptions => ({ instrumentName, aggregation: { type: sdkMetrics.AggregationType.DROP } }),
    ),
  ];
}
