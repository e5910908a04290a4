import { prometheusName } from "./prometheus-name.ts";

/**
 * Every metric the services export that dashboards and alerts may use
 * (docs/operations.md lists them with their meaning), and the one home of
 * each: its OpenTelemetry instrument (name, description, unit, buckets), from
 * which its Prometheus name is derived (prometheus-name.ts). Our instruments
 * are created from these entries (instruments.ts); those an instrumentation
 * library creates (`createdBy`) are only described here. scripts/
 * check-observability.ts holds the Grafana dashboard and the PrometheusRule to
 * the Prometheus names, and test/e2e/tracing-under-load.test.ts checks that
 * each service really exports its own. `whenIdle`: present from the first
 * scrape (gauges, and instruments the start-up itself records); the others
 * appear with their first event.
 */
export type MetricDefinition = {
  /** The OpenTelemetry instrument's name. */
  instrument: string;
  type: "counter" | "gauge" | "histogram";
  description: string;
  /** UCUM, as OpenTelemetry has it: "s", "By", "1", or an annotation such as "{item}". */
  unit?: string;
  /** A histogram's explicit bucket boundaries (advice to the SDK). */
  buckets?: readonly number[];
  labels: readonly string[];
  services: readonly Service[];
  whenIdle: boolean;
  /** The instrumentation library that creates the instrument, when our code does not. */
  createdBy?: string;
};

export type Service = "gateway" | "auth" | "alerts" | "monitors";

const ALL = ["gateway", "auth", "alerts", "monitors"] as const;
const GRPC = ["auth", "alerts", "monitors"] as const;
const ITEMS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512] as const;

export const METRIC_DEFINITIONS = [
  // RED: the gateway's HTTP routes and the services' RPCs.
  {
    instrument: "http.server.request.duration",
    type: "histogram",
    description: "Duration of HTTP server requests.",
    unit: "s",
    labels: ["http_route", "http_request_method", "http_response_status_code"],
    services: ["gateway"],
    whenIdle: false,
    createdBy: "@opentelemetry/instrumentation-http",
  },
  {
    // Semantic conventions' rpc.server.call.duration. Both labels are bounded: only registered methods
    // reach a handler, and statuses are gRPC's seventeen names.
    instrument: "rpc.server.call.duration",
    type: "histogram",
    description: "Duration of gRPC calls served, by method and status.",
    unit: "s",
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    labels: ["rpc_method", "rpc_response_status_code"],
    services: GRPC,
    whenIdle: false,
  },
  {
    instrument: "pulsegate.rpc.batch.size",
    type: "histogram",
    description: "Items per call of a batch RPC, as served.",
    unit: "{item}",
    buckets: ITEMS,
    labels: ["rpc_method"],
    services: GRPC,
    whenIdle: false,
  },
  // The gateway's business counters and batches.
  {
    instrument: "pulsegate.triggers",
    type: "counter",
    description: "Accepted alert triggers by outcome (created, occurrence_added, reopened, filtered).",
    labels: ["outcome"],
    services: ["gateway"],
    whenIdle: false,
  },
  {
    instrument: "pulsegate.pings",
    type: "counter",
    description: "Accepted pings by reported status and how they were stored (recorded, spooled).",
    labels: ["status", "stored"],
    services: ["gateway"],
    whenIdle: false,
  },
  {
    instrument: "pulsegate.request.errors",
    type: "counter",
    description: "Error answers by code (missing_signature, invalid_signature, rate_limited, ...).",
    labels: ["code", "status"],
    services: ["gateway"],
    whenIdle: false,
  },
  {
    instrument: "pulsegate.gateway.batch.size",
    type: "histogram",
    description: "Items per coalesced hot-path call (VerifySignature, TriggerAlert, RecordPing, LookupMonitors).",
    unit: "{item}",
    buckets: ITEMS,
    labels: ["rpc"],
    services: ["gateway"],
    whenIdle: false,
  },
  {
    instrument: "pulsegate.gateway.batch.duration.seconds",
    type: "histogram",
    description: "Time from sending a coalesced hot-path call to its answer.",
    unit: "s",
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    labels: ["rpc"],
    services: ["gateway"],
    whenIdle: false,
  },
  // alerts.
  {
    // Outcomes: created, occurrence_added, reopened, quota_exhausted, invalid; sources: webhook, monitor.
    instrument: "pulsegate.alerts.triggers",
    type: "counter",
    description:
      "Triggers folded into alerts, by outcome and source (filtered and unknown-source triggers are counted by the gateway).",
    labels: ["outcome", "source"],
    services: ["alerts"],
    whenIdle: false,
  },
  {
    instrument: "pulsegate.alerts.deliveries",
    type: "counter",
    description: "Notification delivery attempts by result (delivered, retry, failed) and channel kind.",
    labels: ["result", "channel_kind"],
    services: ["alerts"],
    whenIdle: false,
  },
  {
    instrument: "pulsegate.alerts.open",
    type: "gauge",
    description: "Alerts not resolved, by status (open, acknowledged).",
    labels: ["status"],
    services: ["alerts"],
    whenIdle: true,
  },
  {
    instrument: "pulsegate.alerts.outbox.backlog",
    type: "gauge",
    description:
      "Notification backlog by stage: outbox events not yet expanded (unexpanded), deliveries not yet done (pending_delivery).",
    labels: ["stage"],
    services: ["alerts"],
    whenIdle: true,
  },
  {
    instrument: "pulsegate.alerts.outbox.oldest.age.seconds",
    type: "gauge",
    description: "Age of the oldest event of each backlog stage (0 when the stage is empty).",
    unit: "s",
    labels: ["stage"],
    services: ["alerts"],
    whenIdle: true,
  },
  // monitors.
  {
    // Not "pulsegate.monitors.count": Prometheus keeps `_count` for a histogram's series.
    instrument: "pulsegate.monitors",
    type: "gauge",
    description: "Monitors by status (idle, up, down, paused).",
    labels: ["status"],
    services: ["monitors"],
    whenIdle: true,
  },
  {
    instrument: "pulsegate.monitors.missed_heartbeats",
    type: "counter",
    description: "Monitors marked down by the sweeper for a missed heartbeat.",
    labels: [],
    services: ["monitors"],
    whenIdle: false,
  },
  {
    instrument: "pulsegate.monitors.sweeps",
    type: "counter",
    description: "Missed-heartbeat sweeper passes by result (ok, held while the spool holds pings, error).",
    labels: ["result"],
    services: ["monitors"],
    whenIdle: false,
  },
  {
    instrument: "pulsegate.monitors.sweep.last_success.timestamp.seconds",
    type: "gauge",
    description: "When this replica's missed-heartbeat sweeper last completed a pass (Unix time; 0 before the first).",
    unit: "s",
    labels: [],
    services: ["monitors"],
    whenIdle: true,
  },
  {
    instrument: "pulsegate.monitors.spool.depth",
    type: "gauge",
    description: "Pings waiting in the spool (Redis stream) for the database.",
    labels: [],
    services: ["monitors"],
    whenIdle: true,
  },
  {
    instrument: "pulsegate.monitors.spool.oldest.age.seconds",
    type: "gauge",
    description: "Age of the oldest ping in the spool: how far the drain lags (0 when empty).",
    unit: "s",
    labels: [],
    services: ["monitors"],
    whenIdle: true,
  },
  {
    instrument: "pulsegate.monitors.spool.drained",
    type: "counter",
    description: "Spooled pings taken out of the spool by the drain, by result (applied, dead_lettered).",
    labels: ["result"],
    services: ["monitors"],
    whenIdle: false,
  },
  // Our queues (the gateway's audit recorder; alerts' outbox expansion, deliveries, reminders; monitors'
  // incident actions and ping spool), each a fixed label value (@pulsegate/grpc set-aside.ts).
  {
    instrument: "pulsegate.queue.set_aside",
    type: "counter",
    description:
      "Queue entries set aside because their receiver refused them as invalid, instead of retried ahead of the rest, by queue.",
    labels: ["queue"],
    services: ["gateway", "alerts", "monitors"],
    whenIdle: false,
  },
  // Background loops (@pulsegate/lifecycle periodic) whose failures they do not handle themselves.
  {
    instrument: "pulsegate.periodic.failures",
    type: "counter",
    description: "Failed runs of a periodic task, by task.",
    labels: ["task"],
    services: ["alerts", "monitors"],
    whenIdle: false,
  },
  // Node runtime, every service.
  {
    // Ours (live-heap.ts): the heap gauge below counts garbage too, so only this one tells a leak.
    instrument: "pulsegate.heap.live",
    type: "gauge",
    description: "V8 heap in use outside the young generation just after the latest full collection: the live heap.",
    unit: "By",
    labels: [],
    services: ALL,
    whenIdle: false,
  },
  {
    instrument: "nodejs.eventloop.delay.p99",
    type: "gauge",
    description: "Event loop 99 percentile delay.",
    unit: "s",
    labels: [],
    services: ALL,
    whenIdle: true,
    createdBy: "@opentelemetry/instrumentation-runtime-node",
  },
  {
    instrument: "nodejs.eventloop.utilization",
    type: "gauge",
    description: "Event loop utilization",
    unit: "1",
    labels: [],
    services: ALL,
    whenIdle: true,
    createdBy: "@opentelemetry/instrumentation-runtime-node",
  },
  {
    instrument: "v8js.memory.heap.used",
    type: "gauge",
    description: "Heap Memory size allocated.",
    unit: "By",
    labels: ["v8js_heap_space_name"],
    services: ALL,
    whenIdle: true,
    createdBy: "@opentelemetry/instrumentation-runtime-node",
  },
] as const satisfies readonly MetricDefinition[];

/** A catalogue entry with the name Prometheus gives it. */
export type MetricEntry = MetricDefinition & { name: string };

export const METRIC_CATALOGUE: MetricEntry[] = METRIC_DEFINITIONS.map((definition) => ({
  ...definition,
  name: prometheusName(definition),
}));

/** The series names a metric gives Prometheus (a histogram's _bucket, _sum and _count). */
export function seriesNames(entry: MetricEntry): string[] {
  return entry.type === "histogram"
    ? [`${entry.name}_bucket`, `${entry.name}_sum`, `${entry.name}_count`]
    : [entry.name];
}
