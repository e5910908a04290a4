import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import { createPgPool, type PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { trace } from "@pulsegate/telemetry";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LastKnownMonitors } from "../../services/monitors/src/monitors/last-known-monitors.ts";
import type { PingItem } from "../../services/monitors/src/pings/ping-item.ts";
import { PingRecorder } from "../../services/monitors/src/pings/record-pings.ts";
import { drainSpool } from "../../services/monitors/src/spool/drain-spool.ts";
import { PingSpool } from "../../services/monitors/src/spool/ping-spool.ts";
import { aPingItem } from "../../services/monitors/src/testing/ping-item.ts";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
/** The drain's log lines, as written. */
const lines: string[] = [];
const log = createLogger("spool-drain-trace-test", "info", { write: (line: string) => void lines.push(line) });
let pool: PgPool;
let redis: Redis;
let spool: PingSpool;

beforeAll(() => {
  provider.register();
  pool = createPgPool({ url: stack.databaseUrl, max: 2 });
  redis = new Redis(stack.redisUrl);
  // A spool of its own (keys are named after the database in the URL), so the stack's monitors never drain it.
  spool = new PingSpool(redis, `postgres://localhost/spool_trace_test_${process.pid}_${Date.now()}`);
});

afterAll(async () => {
  await redis.del(spool.key, `${spool.key}:dead`);
  redis.disconnect();
  await pool.end();
  trace.disable();
});

const deps = () => {
  const lastKnown = new LastKnownMonitors();
  const recorder = new PingRecorder({ pool, spool, lastKnown, log, onIncident: async () => undefined });
  return { pool, spool, recorder, lastKnown, log, onIncident: () => undefined };
};

describe("spool drain tracing", () => {
  it("opens no span while the spool is empty, and one per drain that applies pings", async () => {
    exporter.reset();
    expect(await drainSpool(deps())).toBe(false);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(await spool.backlog()).toEqual({ depth: 0, oldestAgeSeconds: 0 });

    const { teamId } = await client.createTeam();
    const monitor = await client.createMonitor(teamId);
    const ping = (overrides: Partial<PingItem>): PingItem => aPingItem({ id: monitor.id, teamId }, overrides);
    await spool.append(ping({}));
    await spool.append(ping({}));
    await spool.append(ping({ monitorId: "mon_unknown" }));
    const backlog = await spool.backlog(Date.now() + 5_000);
    expect(backlog.depth).toBe(3);
    expect(backlog.oldestAgeSeconds).toBeGreaterThanOrEqual(5);

    while (await drainSpool(deps())) {}
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(["spool drain"]);
    const [drain] = spans;
    expect(drain?.parentSpanContext).toBeUndefined();
    expect(drain?.attributes["pulsegate.spool.backlog"]).toBe(3);
    // The unknown monitor's ping was dead-lettered during that drain (its log line is written in the
    // drain's span; the services' pino instrumentation puts the trace id on it: tracing-under-load.test.ts).
    expect(
      lines.some((line) => line.includes('"msg":"queue entry set aside"') && line.includes('"monitor_not_found"')),
    ).toBe(true);
    expect(await spool.length()).toBe(0);
  });
});
