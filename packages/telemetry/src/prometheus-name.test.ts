import { describe, expect, it } from "vitest";
import { METRIC_CATALOGUE } from "./metric-catalogue.ts";
import { nameWithUnit, prometheusName } from "./prometheus-name.ts";

describe("prometheusName", () => {
  it("gives every catalogued metric the name scrapers, dashboards and alerts use today", () => {
    expect(METRIC_CATALOGUE.map((entry) => entry.name)).toEqual([
      "http_server_request_duration_seconds",
      "rpc_server_call_duration_seconds",
      "pulsegate_rpc_batch_size",
      "pulsegate_triggers_total",
      "pulsegate_pings_total",
      "pulsegate_request_errors_total",
      "pulsegate_gateway_batch_size",
      "pulsegate_gateway_batch_duration_seconds",
      "pulsegate_alerts_triggers_total",
      "pulsegate_alerts_deliveries_total",
      "pulsegate_alerts_open",
      "pulsegate_alerts_outbox_backlog",
      "pulsegate_alerts_outbox_oldest_age_seconds",
      "pulsegate_monitors",
      "pulsegate_monitors_missed_heartbeats_total",
      "pulsegate_monitors_sweeps_total",
      "pulsegate_monitors_sweep_last_success_timestamp_seconds",
      "pulsegate_monitors_spool_depth",
      "pulsegate_monitors_spool_oldest_age_seconds",
      "pulsegate_monitors_spool_drained_total",
      "pulsegate_queue_set_aside_total",
      "pulsegate_periodic_failures_total",
      "pulsegate_heap_live_bytes",
      "nodejs_eventloop_delay_p99_seconds",
      "nodejs_eventloop_utilization_ratio",
      "v8js_memory_heap_used_bytes",
    ]);
  });

  it("gives no gauge or counter a suffix Prometheus keeps for a histogram's series", () => {
    const misnamed = METRIC_CATALOGUE.filter(
      (entry) => entry.type !== "histogram" && /_(count|sum|bucket)$/.test(entry.name),
    ).map((entry) => entry.name);
    expect(misnamed).toEqual([]);
  });

  it("adds the unit a name lacks, once", () => {
    expect(prometheusName({ instrument: "a.duration", type: "histogram", unit: "s" })).toBe("a_duration_seconds");
    expect(prometheusName({ instrument: "a.duration.seconds", type: "histogram", unit: "s" })).toBe(
      "a_duration_seconds",
    );
    expect(prometheusName({ instrument: "heap.used", type: "gauge", unit: "By" })).toBe("heap_used_bytes");
    expect(prometheusName({ instrument: "loop.utilization", type: "gauge", unit: "1" })).toBe("loop_utilization_ratio");
  });

  it("leaves annotations and unitless names alone", () => {
    expect(prometheusName({ instrument: "batch.size", type: "histogram", unit: "{item}" })).toBe("batch_size");
    expect(prometheusName({ instrument: "alerts.open", type: "gauge" })).toBe("alerts_open");
  });

  it("ends counters in _total, once, as the exporter does", () => {
    expect(prometheusName({ instrument: "pulsegate.triggers", type: "counter" })).toBe("pulsegate_triggers_total");
    expect(prometheusName({ instrument: "jobs.total", type: "counter" })).toBe("jobs_total");
    expect(prometheusName({ instrument: "jobs.total", type: "gauge" })).toBe("jobs_total");
    expect(prometheusName({ instrument: "a..b", type: "gauge" })).toBe("a_b");
  });

  it("renames to a dotted name that keeps the instrument's", () => {
    expect(nameWithUnit("rpc.server.call.duration", "s")).toBe("rpc.server.call.duration.seconds");
    expect(nameWithUnit("pulsegate.gateway.batch.duration.seconds", "s")).toBe(
      "pulsegate.gateway.batch.duration.seconds",
    );
    expect(nameWithUnit("pulsegate.rpc.batch.size", "{item}")).toBe("pulsegate.rpc.batch.size");
  });
});
