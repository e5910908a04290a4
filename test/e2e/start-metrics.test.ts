// Metrics under `npm start`: METRICS_PORT once went to all four
// processes, one bound it and the others failed in silence. DESIGN §9: the
// gateway gets N, auth, alerts and monitors N+1, N+2, N+3, printed in the start
// banner, and a port that cannot be bound stops the start, naming the port.
import { createServer, type Server } from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { dropDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { StartProcess } from "./start-process.ts";

const databaseName = `pulsegate_start_metrics_${process.pid}`;
const SERVICES = ["gateway", "auth", "alerts", "monitors"] as const;
let start: StartProcess | undefined;
let blocker: Server | undefined;

afterEach(async () => {
  if (start?.running) await start.stop("SIGINT", 30_000).catch(() => start?.kill());
  blocker?.close();
});
afterAll(() => dropDatabase(databaseName));

function listen(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    server.listen(port, () => resolve(server));
  });
}

/** N such that N..N+3 were all free a moment ago. */
async function fourFreePorts(): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const servers = await Promise.all([0, 1, 2, 3].map((offset) => listen(base + offset)));
    await Promise.all(servers.map((server) => new Promise((done) => (server ? server.close(done) : done(undefined)))));
    if (servers.every(Boolean)) return base;
  }
}

function startWithMetrics(metricsPort: number): Promise<StartProcess> {
  return StartProcess.spawn({
    env: {
      METRICS_PORT: String(metricsPort),
      OTEL_SDK_DISABLED: "false",
      DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`,
      REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    },
  });
}

describe("npm start with METRICS_PORT", () => {
  it("serves /metrics from every process on N..N+3, as the banner says", async () => {
    const base = await fourFreePorts();
    start = await startWithMetrics(base);
    await start.waitReady(60_000);
    expect(start.output()).toContain(
      `metrics: /metrics on gateway :${base}, auth :${base + 1}, alerts :${base + 2}, monitors :${base + 3}`,
    );
    // The gauges read from the database at scrape time are left out of a scrape whose read took
    // over 2 s (a cold start on a loaded machine): scrape again until they are there, 20 s at most.
    const dbGauges: Partial<Record<(typeof SERVICES)[number], RegExp>> = {
      alerts: /^pulsegate_alerts_outbox_backlog\{/m,
      monitors: /^pulsegate_monitors\{/m,
    };
    for (const [offset, service] of SERVICES.entries()) {
      let text = "";
      for (let attempt = 0; attempt < 20; attempt++) {
        const response = await fetch(`http://127.0.0.1:${base + offset}/metrics`);
        expect(response.status).toBe(200);
        text = await response.text();
        if (dbGauges[service]?.test(text) !== false) break;
        await new Promise((done) => setTimeout(done, 1_000));
      }
      // Each process's own resource: the port belongs to the service the banner names.
      expect(text).toContain(`service_name="pulsegate-${service}"`);
      if (service === "alerts") {
        expect(text).toMatch(/^pulsegate_alerts_open\{[^}]*status="open"[^}]*\} 0$/m);
        expect(text).toMatch(/^pulsegate_alerts_outbox_backlog\{[^}]*stage="pending_delivery"[^}]*\} 0$/m);
      }
      if (service === "monitors") expect(text).toMatch(/^pulsegate_monitors\{[^}]*status="up"[^}]*\} 0$/m);
    }
    expect(await start.stop("SIGINT", 30_000)).toEqual({ code: 0, signal: null });
  }, 90_000);

  it("stops the start when a port cannot be bound, naming it", async () => {
    const base = await fourFreePorts();
    // Alerts' port (N+2) is taken.
    blocker = await listen(base + 2);
    start = await startWithMetrics(base);
    const exit = await start.waitExit(60_000);
    expect(exit.code).toBe(1);
    const output = start.output();
    expect(output).toContain(`METRICS_PORT ${base + 2}: cannot serve Prometheus metrics there (EADDRINUSE)`);
    expect(output).toContain("alerts exited (1); stopping everything (the stack was not ready yet).");
    expect(output).not.toContain("ready: gateway at");
  }, 90_000);
});
