// The ping path's spool state machine with a real Redis (the test stack's) and PostgreSQL away:
// writing → spooling on an outage (the ping in the spool, answered as the monitor will look), every
// later ping behind it in order, and back to writing only once a drain finds the spool empty with no
// append in flight; a ping the spool cannot take goes to the database if it is back. Refusals without
// a spool, paused and unknown monitors, and both stores away are in
// services/monitors/src/pings/record-pings.test.ts; a failed drain in spool-drain-failure.test.ts.
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { createPgPool, type PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { isTransientError } from "@pulsegate/runtime/transient-error";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LastKnownMonitors } from "../../services/monitors/src/monitors/last-known-monitors.ts";
import { PingRecorder, type RecordInput } from "../../services/monitors/src/pings/record-pings.ts";
import { drainSpool } from "../../services/monitors/src/spool/drain-spool.ts";
import { PingSpool } from "../../services/monitors/src/spool/ping-spool.ts";
import { aMonitorView } from "../../services/monitors/src/testing/monitor-view.ts";
import { Client } from "../support/client.ts";

const stack = inject("stack");
let redis: Redis;
let awayPool: PgPool;
/** A local port nothing listens on. */
let awayPort: number;
const spools: PingSpool[] = [];

beforeAll(async () => {
  // A port nothing listens on: the database is away (connections refused at once).
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  awayPort = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  awayPool = createPgPool({ url: `postgres://pulsegate@127.0.0.1:${awayPort}/away`, max: 1 });
  redis = new Redis(stack.redisUrl);
});

afterAll(async () => {
  for (const spool of spools) await redis.del(spool.key, `${spool.key}:dead`, `${spool.key}:drain-lock`);
  redis.disconnect();
  await awayPool.end();
});

/** A recorder over a spool of its own (keys are named after the database in the URL). */
function setup() {
  const spool = new PingSpool(redis, `postgres://localhost/spool_state_${process.pid}_${randomUUID()}`);
  spools.push(spool);
  const lines: string[] = [];
  const log = createLogger("spool-state-test", "info", { write: (line: string) => void lines.push(line) });
  const lastKnown = new LastKnownMonitors();
  const recorder = new PingRecorder({ pool: awayPool, spool, lastKnown, log, onIncident: async () => undefined });
  const drain = () => drainSpool({ pool: awayPool, spool, recorder, lastKnown, log, onIncident: () => undefined });
  const messages = () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { spool, recorder, lastKnown, drain, messages };
}

const ping = (
  monitor: { id: string; teamId: string },
  status: RecordInput["status"],
  seconds: number,
): RecordInput => ({
  monitorId: monitor.id,
  teamId: monitor.teamId,
  status,
  reason: status === "down" ? "disk full" : null,
  groupKey: null,
  metadataJson: null,
  method: "POST",
  receivedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)),
  heartbeatQuotaMonthly: 0,
  alertQuotaMonthly: 0,
});

const known = aMonitorView;

describe("the spool state machine", () => {
  it("an outage turns writing into spooling: each ping spooled in order, answered as the monitor will look", async () => {
    const { spool, recorder, lastKnown, messages } = setup();
    const monitor = lastKnown.remember(known({ status: "up" }));
    const stranger = { id: randomUUID(), teamId: randomUUID() };
    expect(recorder.spooling).toBe(false);

    // Writing: the database is away, so the ping goes to the spool and spooling starts.
    const [down] = await recorder.record([ping(monitor, "down", 1)]);
    expect(recorder.spooling).toBe(true);
    expect(down).toMatchObject({
      outcome: "spooled",
      monitor: {
        id: monitor.id,
        status: "down",
        monitoringActive: true,
        lastPingStatus: "down",
        lastReason: "disk full",
        lastPingAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 1)),
      },
    });
    // Spooling: the next pings queue behind it; a start ping keeps the status it predicts, and a
    // monitor this process has not seen yet is answered without a state.
    const later = await recorder.record([ping(monitor, "start", 2), ping(stranger, "up", 3)]);
    expect(later).toMatchObject([
      { outcome: "spooled", monitor: { status: "down", lastPingStatus: "start" } },
      { outcome: "spooled", monitor: null },
    ]);
    // The state answered while the database is away (LookupMonitor, the next spooled ping) is the predicted one.
    expect(lastKnown.byId(monitor.id)).toMatchObject({ status: "down", monitoringActive: true });

    const { entries } = await spool.oldest(10);
    expect(entries.map((entry) => [entry.item.monitorId, entry.item.status])).toEqual([
      [monitor.id, "down"],
      [monitor.id, "start"],
      [stranger.id, "up"],
    ]);
    expect(entries.map((entry) => entry.item.pingId)).toEqual(
      [down, ...later].map((result) => (result as { pingId: string }).pingId),
    );
    expect(messages().filter((message) => message === "pings go to the spool until it is drained")).toHaveLength(1);
  });

  it("the state a spooled ping predicts follows the ping transition: a run opens, a slow run is down", async () => {
    const { recorder, lastKnown } = setup();
    const monitor = lastKnown.remember(
      known({ status: "up", intervalSeconds: 60, graceSeconds: 30, maxDurationSeconds: 10 }),
    );
    recorder.startSpooling("database away");
    const [start] = await recorder.record([ping(monitor, "start", 0)]);
    expect(start).toMatchObject({
      outcome: "spooled",
      monitor: {
        status: "up",
        lastPingStatus: "start",
        runStartedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0)),
        // The run is due at its start plus the shorter of the grace (30 s) and the maximum (10 s).
        nextDueAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 10)),
      },
    });
    // Finished after 25 s, longer than its 10 s maximum: an up ping that counts as down.
    const [slow] = await recorder.record([ping(monitor, "up", 25)]);
    expect(slow).toMatchObject({
      outcome: "spooled",
      monitor: {
        status: "down",
        lastPingStatus: "up",
        lastReason: "run took 25 s, longer than the 10 s maximum",
        runStartedAt: null,
        lastDurationMs: 25_000,
        nextDueAt: null,
        incidentOpen: true,
      },
    });
    // A ping older than the last one applied moves nothing: it is kept as history only.
    const [late] = await recorder.record([ping(monitor, "up", 5)]);
    expect(late).toMatchObject({ outcome: "spooled", monitor: { status: "down", lastPingStatus: "up" } });
    expect(lastKnown.byId(monitor.id)).toMatchObject({ status: "down", lastDurationMs: 25_000 });
  });

  it("spooling ends only when a drain finds the spool empty and no append is in flight", async () => {
    const { spool, recorder, lastKnown, drain, messages } = setup();
    const monitor = lastKnown.remember(known());
    recorder.startSpooling("database away");

    // An append in flight: the spool looks empty, but spooling must go on behind it.
    const appending = recorder.record([ping(monitor, "up", 1)]);
    expect(recorder.stopSpoolingIfIdle()).toBe(false);
    expect(recorder.spooling).toBe(true);
    const [spooled] = await appending;
    expect(spooled).toMatchObject({ outcome: "spooled" });

    // A drain with the database still away fails and changes nothing.
    await expect(drain()).rejects.toSatisfy(isTransientError);
    expect(recorder.spooling).toBe(true);
    expect(await spool.length()).toBe(1);

    // Once the entries are gone (applied by a drain), the next drain finds the spool empty: writing again.
    await spool.remove((await spool.oldest(10)).entries.map((entry) => entry.entryId));
    expect(await drain()).toBe(false);
    expect(recorder.spooling).toBe(false);
    expect(messages()).toContain("spool drained: pings are written to the database again");

    // And an outage starts spooling again.
    await recorder.record([ping(monitor, "up", 2)]);
    expect(recorder.spooling).toBe(true);
    expect(await spool.length()).toBe(1);
  });

  it("while spooling, a ping the spool cannot take is written to the database if it is back, and spooling goes on", async () => {
    // The stack's database (the monitor is real) and a Redis that is away.
    const client = new Client(stack);
    const { teamId, monitorId } = await client.setupMonitor();
    const pool = createPgPool({ url: stack.databaseUrl, max: 1 });
    const awayRedis = new Redis({
      host: "127.0.0.1",
      port: awayPort,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    // Its refused connection is the point; the append's rejection carries it.
    awayRedis.on("error", () => undefined);
    try {
      const spool = new PingSpool(awayRedis, stack.databaseUrl);
      const log = createLogger("spool-state-test", "silent");
      const recorder = new PingRecorder({
        pool,
        spool,
        lastKnown: new LastKnownMonitors(),
        log,
        onIncident: async () => undefined,
      });
      recorder.startSpooling("database away");
      const [result] = await recorder.record([{ ...ping({ id: monitorId, teamId }, "up", 1), receivedAt: null }]);
      expect(result).toMatchObject({ outcome: "recorded", monitor: { id: monitorId, status: "up" } });
      const { rows } = await pool.query<{ spooled: boolean }>(
        "SELECT spooled FROM monitors.pings WHERE monitor_id = $1",
        [monitorId],
      );
      expect(rows).toEqual([{ spooled: false }]);
      // Only a drain that finds the spool empty ends spooling.
      expect(recorder.spooling).toBe(true);
    } finally {
      awayRedis.disconnect();
      await pool.end();
    }
  });
});
