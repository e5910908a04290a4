// `npm start -- --replicas 2` runs two of every service, as the cluster does. Each gateway
// is printed and serves; every gRPC client spreads its calls over both replicas of what it calls (seen in
// each replica's own rpc_server_call_duration count); a replica killed with SIGKILL is started again with
// back-off and said so, while the other serves; Ctrl-C still stops everything, cleanly.
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "../support/client.ts";
import { dropDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { eventually } from "../support/eventually.ts";
import { freePortRange } from "../support/free-port.ts";
import { sampleSum, scrape } from "../support/prometheus.ts";
import { StartProcess } from "./start-process.ts";

const databaseName = `pulsegate_start_replicas_${process.pid}`;
let start: StartProcess | undefined;

afterAll(async () => {
  if (start?.running) await start.stop("SIGINT", 60_000).catch(() => start?.kill());
  await dropDatabase(databaseName);
});

/** TriggerAlert calls one alerts process has served (its rpc server histogram's count). */
async function triggerCalls(metricsPort: number): Promise<number> {
  return sampleSum(await scrape(metricsPort), "rpc_server_call_duration_seconds_count", {
    rpc_method: "alerts.v1.AlertsService/TriggerAlert",
  });
}

describe("npm start -- --replicas 2", () => {
  it("runs two of everything, balances every client over both, and restarts a killed replica", async () => {
    const metricsBase = await freePortRange(8);
    start = await StartProcess.spawn({
      args: ["--replicas", "2"],
      env: {
        METRICS_PORT: String(metricsBase),
        OTEL_SDK_DISABLED: "false",
        DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`,
        REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
      },
    });
    const adminToken = await start.waitReady(150_000);
    const port = Number(new URL(start.baseUrl).port);
    const gateways = [start.baseUrl, `http://127.0.0.1:${port + 1}`];
    expect(start.output()).toContain(
      `[pulsegate] replicas: 2 of every service; gateways at ${gateways.join(", ")}; each gRPC client balances over every replica`,
    );
    // alerts-1 on N+2, alerts-2 on N+6 (four ports per replica).
    const alertsMetrics = [metricsBase + 2, metricsBase + 6];
    expect(start.output()).toContain(`alerts-1 :${alertsMetrics[0]}`);
    expect(start.output()).toContain(`alerts-2 :${alertsMetrics[1]}`);

    const [one, two] = gateways.map((baseUrl) => new Client({ baseUrl, adminToken } as never)) as [Client, Client];
    const { secret, webhookUrl } = await one.setup();
    const before = await Promise.all(alertsMetrics.map(triggerCalls));
    for (let i = 0; i < 10; i++) {
      for (const client of [one, two]) {
        const response = await client.trigger(webhookUrl, { title: `replica ${i}`, group_key: `r-${i}` }, { secret });
        expect(response.status).toBe(201);
      }
    }
    // Each gateway's alerts client sent calls to both alerts replicas (pick_first would send all to one).
    const after = await Promise.all(alertsMetrics.map(triggerCalls));
    expect((after[0] ?? 0) - (before[0] ?? 0)).toBeGreaterThan(0);
    expect((after[1] ?? 0) - (before[1] ?? 0)).toBeGreaterThan(0);

    // SIGKILL the second alerts replica: said, started again, and the other serves meanwhile.
    const running = start;
    const alertsProcesses = running.processes().filter((entry) => entry.service === "alerts");
    expect(alertsProcesses).toHaveLength(2);
    // Replica 2 listens 10 ports above replica 1.
    const portOf = (entry: { grpc: string | undefined }) => Number(entry.grpc?.split(":")[1]);
    const killed = [...alertsProcesses].sort((a, b) => portOf(a) - portOf(b))[1];
    process.kill(killed?.pid as number, "SIGKILL");
    await start.waitFor(/\[pulsegate\] alerts-2 exited \(SIGKILL\); starting it again in 1 s \(restart 1\)\./, 10_000);
    for (const client of [one, two]) {
      const response = await client.trigger(webhookUrl, { title: "while one is down", group_key: "down" }, { secret });
      expect(response.status).toBe(201);
    }
    const restarted = await eventually(
      async () => {
        const now = running.processes().filter((entry) => entry.service === "alerts" && entry.pid !== killed?.pid);
        if (now.length !== 2) throw new Error(`${now.length} alerts processes other than the killed one`);
        return now;
      },
      { timeoutMs: 30_000 },
    );
    expect(restarted.map((entry) => entry.grpc).sort()).toEqual(alertsProcesses.map((entry) => entry.grpc).sort());
    // The new process serves again: its metrics port answers and calls reach it.
    const backBefore = await eventually(() => triggerCalls(alertsMetrics[1] as number), { timeoutMs: 30_000 });
    await eventually(
      async () => {
        const response = await two.trigger(webhookUrl, { title: "back", group_key: "back" }, { secret });
        expect(response.status).toBe(201);
        expect(await triggerCalls(alertsMetrics[1] as number)).toBeGreaterThan(backBefore);
        return true;
      },
      { timeoutMs: 30_000 },
    );

    expect(await start.stop("SIGINT", 60_000)).toEqual({ code: 0, signal: null });
  }, 240_000);
});
