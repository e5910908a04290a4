// The spool's state machine on the ping path: when pings go to the spool, when they stop, and what
// a failed append or an unreadable spool does. Real clients to stores that are away (a closed port):
// no PostgreSQL or Redis is needed, and none is mocked. Draining a spool that holds pings needs both
// and is covered in test/e2e/ping-spool-drain.test.ts and test/integration/spool-drain-trace.test.ts.
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { createPgPool, type PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LastKnownMonitors } from "../monitors/last-known-monitors.ts";
import { drainSpool } from "../spool/drain-spool.ts";
import { PingSpool } from "../spool/ping-spool.ts";
import { aMonitorView } from "../testing/monitor-view.ts";
import { PingRecorder, type RecordInput } from "./record-pings.ts";

/** A local port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let pool: PgPool;
let redis: Redis;
let databaseUrl: string;

beforeAll(async () => {
  const port = await closedPort();
  databaseUrl = `postgres://pulsegate@127.0.0.1:${port}/record_pings_test`;
  pool = createPgPool({ url: databaseUrl, max: 1 });
  redis = new Redis({
    host: "127.0.0.1",
    port,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
});

afterAll(async () => {
  redis.disconnect();
  await pool.end();
});

const setup = (spool: PingSpool) => {
  const lines: string[] = [];
  const log = createLogger("record-pings-test", "info", { write: (line: string) => void lines.push(line) });
  const lastKnown = new LastKnownMonitors();
  const recorder = new PingRecorder({ pool, spool, lastKnown, log, onIncident: async () => undefined });
  const drain = () => drainSpool({ pool, spool, recorder, lastKnown, log, onIncident: () => undefined });
  const messages = () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { recorder, lastKnown, drain, messages };
};

const input = (monitorId: string, teamId: string): RecordInput => ({
  monitorId,
  teamId,
  status: "down",
  reason: "disk",
  groupKey: null,
  metadataJson: null,
  method: "POST",
  receivedAt: new Date("2026-01-01T00:00:00Z"),
  heartbeatQuotaMonthly: 0,
  alertQuotaMonthly: 0,
});

const view = aMonitorView;

describe("PingRecorder spooling", () => {
  it("writes to the database until it is told to spool; spooling starts once and stops when idle", () => {
    const { recorder, messages } = setup(new PingSpool(redis, databaseUrl));
    expect(recorder.spooling).toBe(false);
    expect(recorder.stopSpoolingIfIdle()).toBe(true);
    recorder.startSpooling("database away");
    recorder.startSpooling("still away");
    expect(recorder.spooling).toBe(true);
    expect(recorder.stopSpoolingIfIdle()).toBe(true);
    expect(recorder.spooling).toBe(false);
    expect(messages()).toEqual([
      "pings go to the spool until it is drained",
      "spool drained: pings are written to the database again",
    ]);
  });

  it("without a spool, a database outage refuses the ping and does not start spooling", async () => {
    const { recorder } = setup(new PingSpool(null, databaseUrl));
    const monitor = view({});
    await expect(recorder.record([input(monitor.id, monitor.teamId)])).rejects.toMatchObject({
      name: "UnavailableError",
      code: "service_unavailable",
      message: expect.stringContaining("the ping was not stored"),
    });
    expect(recorder.spooling).toBe(false);
  });

  it("while spooling, answers pings of paused or other teams' monitors from the last known state, spooling nothing", async () => {
    const { recorder, lastKnown } = setup(new PingSpool(redis, databaseUrl));
    const paused = lastKnown.remember(view({ status: "paused" }));
    const other = lastKnown.remember(view({}));
    recorder.startSpooling("database away");
    expect(await recorder.record([input(paused.id, paused.teamId), input(other.id, randomUUID())])).toEqual([
      { outcome: "paused", monitor: paused },
      { outcome: "monitor_not_found" },
    ]);
    expect(recorder.spooling).toBe(true);
  });

  it("while spooling, a failed append tries the database once; with both away the ping is refused and nothing stays pending", async () => {
    const { recorder, lastKnown, messages } = setup(new PingSpool(redis, databaseUrl));
    const monitor = lastKnown.remember(view({}));
    recorder.startSpooling("database away");
    await expect(recorder.record([input(monitor.id, monitor.teamId)])).rejects.toMatchObject({
      name: "UnavailableError",
      code: "service_unavailable",
      message: expect.stringContaining("the ping was not stored"),
    });
    expect(lastKnown.byId(monitor.id)).toBe(monitor);
    expect(messages()).toContain("ping could be stored neither in the database nor in the spool");
    expect(recorder.spooling).toBe(true);
    expect(recorder.stopSpoolingIfIdle()).toBe(true);
  });

  it("a drain that cannot read the spool does nothing and leaves spooling on; no spool, no drain", async () => {
    const away = setup(new PingSpool(redis, databaseUrl));
    away.recorder.startSpooling("database away");
    expect(await away.drain()).toBe(false);
    expect(away.recorder.spooling).toBe(true);

    const none = setup(new PingSpool(null, databaseUrl));
    expect(await none.drain()).toBe(false);
    expect(none.recorder.spooling).toBe(false);
  });
});
