// Every service's /metrics passes `promtool check metrics`, Prometheus's own lint
// of names and types (counters end in _total; `_count`, `_sum`, `_bucket` belong to histograms;
// units are base units). Every name there is ours to fix, the instrumentation libraries' too
// (a view renames them: packages/telemetry/src/metric-views.ts), so any finding fails. Checked
// after a trigger and pings, so that the request, RPC, batch and PostgreSQL client metrics,
// which appear with their first event, are there too.
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import type { ServiceName } from "../support/stack.ts";

const stack = inject("stack");
const client = new Client(stack);
const SERVICES: ServiceName[] = ["gateway", "auth", "alerts", "monitors"];

async function metricsOf(service: ServiceName): Promise<string> {
  if (!stack.metrics) throw new Error("the shared stack serves no /metrics (test/support/global-setup.ts: metrics)");
  const response = await fetch(`http://${stack.metrics[service]}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

beforeAll(async () => {
  const { teamId, secret, webhookUrl } = await client.setup();
  expect((await client.trigger(webhookUrl, { title: "Disk full", group_key: "disk" }, { secret })).status).toBe(201);
  const monitor = await client.createMonitor(teamId);
  expect((await client.ping(monitor.pingUrl, undefined, { secret })).status).toBe(200);
});

describe("metric names", () => {
  it.each(SERVICES)("%s: promtool check metrics finds nothing", async (service) => {
    const text = await metricsOf(service);
    const lint = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    if (lint.error)
      throw new Error(`promtool: ${lint.error.message} (Debian's package prometheus; .ci/run installs it)`);
    expect(`${lint.stdout}${lint.stderr}`).toBe("");
    expect(lint.status).toBe(0);
  });

  it("exports the gauges once named *_count under their new names", async () => {
    const monitors = await metricsOf("monitors");
    expect(monitors).toMatch(/^pulsegate_monitors\{[^}]*status="up"/m);
    for (const service of ["auth", "alerts", "monitors"] as const) {
      const text = await metricsOf(service);
      expect(text, service).toMatch(/^db_client_connections_usage\{[^}]*db_client_connection_state="(idle|used)"/m);
      expect(text, service).toMatch(/^db_client_operation_duration_seconds_bucket\{/m);
      expect(text, service).not.toMatch(/^(db_client_connection_count|pulsegate_monitors_count)\{/m);
    }
  });
});
