/**
 * Every Prometheus metric the services export that dashboards and alerts
 * may use (docs/operations.md lists them with their meaning). scripts/
 * check-observability.ts holds the Grafana dashboard and the PrometheusRule to
 * these names, and test/e2e/observability.test.ts checks that each service
 * really exports its own. `whenIdle`: present from the first scrape (gauges,
 * and instruments the start-up itself records); the others appear with their
 * first event.
 */
export type MetricEntry = {
  name: string;
  type: "counter" | "gauge" | "histogram";
  labels: string[];
  services: ("gateway" | "auth" | "alerts" | "monitors")[];
  whenIdle: boolean;
};

const ALL: MetricEntry["services"] = ["gateway", "auth", "alerts", "monitors"];
const GRPC: MetricEntry["services"] = ["auth", "alerts", "monitors"];

export const METRIC_CATALOGUE: MetricEntry[] = [
  // RED: the gateway's HTTP routes and the services' RPCs.
  {
    name: "http_server_request_duration_seconds",
    type: "histogram",
    labels: ["http_route", "http_request_method", "http_response_status_code"],
    services: ["gateway"],
    whenIdle: false,
  },
  {
    name: "rpc_server_call_duration_seconds",
    type: "histogram",
    labels: ["rpc_method", "rpc_response_status_code"],
    services: GRPC,
    whenIdle: false,
  },
  { name: "pulsegate_rpc_batch_size", type: "histogram", labels: ["rpc_method"], services: GRPC, whenIdle: false },
  // The gateway's business counters and batches.
  { name: "pulsegate_triggers_total", type: "counter", labels: ["outcome"], services: ["gateway"], whenIdle: false },
  {
    name: "pulsegate_pings_total",
    type: "counter",
    labels: ["status", "stored"],
    services: ["gateway"],
    whenIdle: false,
  },
  {
    name: "pulsegate_request_errors_total",
    type: "counter",
    labels: ["code", "status"],
    services: ["gateway"],
    whenIdle: false,
  },
  { name: "pulsegate_gateway_batch_size", type: "histogram", labels: ["rpc"], services: ["gateway"], whenIdle: false },
  {
    name: "pulsegate_gateway_batch_duration_seconds",
    type: "histogram",
    labels: ["rpc"],
    services: ["gateway"],
    whenIdle: false,
  },
  // alerts.
  {
    name: "pulsegate_alerts_triggers_total",
    type: "counter",
    labels: ["outcome", "source"],
    services: ["alerts"],
    whenIdle: false,
  },
  {
    name: "pulsegate_alerts_deliveries_total",
    type: "counter",
    labels: ["result", "channel_kind"],
    services: ["alerts"],
    whenIdle: false,
  },
  { name: "pulsegate_alerts_open", type: "gauge", labels: ["status"], services: ["alerts"], whenIdle: true },
  { name: "pulsegate_alerts_outbox_backlog", type: "gauge", labels: ["stage"], services: ["alerts"], whenIdle: true },
  {
    name: "pulsegate_alerts_outbox_oldest_age_seconds",
    type: "gauge",
    labels: ["stage"],
    services: ["alerts"],
    whenIdle: true,
  },
  // monitors.
  { name: "pulsegate_monitors_count", type: "gauge", labels: ["status"], services: ["monitors"], whenIdle: true },
  {
    name: "pulsegate_monitors_missed_heartbeats_total",
    type: "counter",
    labels: [],
    services: ["monitors"],
    whenIdle: false,
  },
  {
    name: "pulsegate_monitors_sweeps_total",
    type: "counter",
    labels: ["result"],
    services: ["monitors"],
    whenIdle: false,
  },
  {
    name: "pulsegate_monitors_sweep_last_success_timestamp_seconds",
    type: "gauge",
    labels: [],
    services: ["monitors"],
    whenIdle: true,
  },
  { name: "pulsegate_monitors_spool_depth", type: "gauge", labels: [], services: ["monitors"], whenIdle: true },
  {
    name: "pulsegate_monitors_spool_oldest_age_seconds",
    type: "gauge",
    labels: [],
    services: ["monitors"],
    whenIdle: true,
  },
  {
    name: "pulsegate_monitors_spool_drained_total",
    type: "counter",
    labels: ["result"],
    services: ["monitors"],
    whenIdle: false,
  },
  // Background loops (@pulsegate/lifecycle periodic) whose failures they do not handle themselves.
  {
    name: "pulsegate_periodic_failures_total",
    type: "counter",
    labels: ["task"],
    services: ["alerts", "monitors"],
    whenIdle: false,
  },
  // Node runtime, every service.
  { name: "nodejs_eventloop_delay_p99_seconds", type: "gauge", labels: [], services: ALL, whenIdle: true },
  { name: "nodejs_eventloop_utilization_ratio", type: "gauge", labels: [], services: ALL, whenIdle: true },
  {
    name: "v8js_memory_heap_used_bytes",
    type: "gauge",
    labels: ["v8js_heap_space_name"],
    services: ALL,
    whenIdle: true,
  },
];

/** The series names a metric gives Prometheus (a histogram's _bucket, _sum and _count). */
export function seriesNames(entry: MetricEntry): string[] {
  return entry.type === "histogram"
    ? [`${entry.name}_bucket`, `${entry.name}_sum`, `${entry.name}_count`]
    : [entry.name];
}
