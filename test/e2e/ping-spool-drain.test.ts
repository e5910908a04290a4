import { createPgPool, type PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LastKnownMonitors } from "../../services/monitors/src/monitors/last-known-monitors.ts";
import { applyPingBatch } from "../../services/monitors/src/pings/apply-ping-batch.ts";
import type { PingItem } from "../../services/monitors/src/pings/ping-item.ts";
import { PingRecorder } from "../../services/monitors/src/pings/record-pings.ts";
import { drainSpool } from "../../services/monitors/src/spool/drain-spool.ts";
import { PingSpool } from "../../services/monitors/src/spool/ping-spool.ts";
import { aPingItem } from "../../services/monitors/src/testing/ping-item.ts";
import { Client } from "../support/client.ts";
import { hostPortOf, TcpProxy } from "../support/tcp-proxy.ts";

const stack = inject("stack");
const client = new Client(stack);
const log = createLogger("spool-drain-test", "silent");
let pool: PgPool;
let redis: Redis;
let db: pg.Pool;
// A spool of its own (keys are named after the database in the URL), so the stack's monitors never drain it.
let spool: PingSpool;

beforeAll(async () => {
  pool = createPgPool({ url: stack.databaseUrl, max: 2 });
  redis = new Redis(stack.redisUrl);
  db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
  spool = new PingSpool(redis, `postgres://localhost/spool_drain_test_${process.pid}_${Date.now()}`);
});

afterAll(async () => {
  await redis.del(spool.key, `${spool.key}:dead`);
  redis.disconnect();
  await pool.end();
  await db.end();
});

const item = aPingItem;

const stored = async (monitorId: string) =>
  (
    await db.query<{ status: string; reason: string | null }>(
      "SELECT status, reason FROM monitors.pings WHERE monitor_id = $1 ORDER BY id",
      [monitorId],
    )
  ).rows;

describe("spool drain", () => {
  it("applying the same ping twice stores it once and changes the monitor once", async () => {
    const { teamId } = await client.createTeam();
    const monitor = await client.createMonitor(teamId);
    const ping = item({ id: monitor.id, teamId }, { status: "down", reason: "twice" });
    const [first] = await applyPingBatch(pool, [ping], { spooled: true, now: new Date() });
    // Twice more, in one batch and in the next: the copy in the same batch and the later one are duplicates.
    const again = await applyPingBatch(pool, [ping], { spooled: true, now: new Date() });
    expect([first?.outcome, again[0]?.outcome]).toEqual(["recorded", "duplicate"]);
    expect(await stored(monitor.id)).toEqual([{ status: "down", reason: "twice" }]);
    const { rows } = await db.query("SELECT kind FROM monitors.incident_actions WHERE monitor_id = $1", [monitor.id]);
    expect(rows).toEqual([{ kind: "raise" }]);
  });

  it("drains in arrival order, exactly once, and moves what can never apply to the dead-letter stream", async () => {
    const { teamId } = await client.createTeam();
    const monitor = await client.createMonitor(teamId);
    const target = { id: monitor.id, teamId };
    const start = Date.now();
    const pings = [
      item(target, { status: "down", reason: "a", receivedAt: new Date(start) }),
      item(target, { status: "down", reason: "b", receivedAt: new Date(start + 1) }),
      item(target, { status: "up", receivedAt: new Date(start + 2) }),
    ];
    // The first ping's commit was uncertain: it is in the database AND still in the spool.
    await applyPingBatch(pool, [pings[0] as PingItem], { spooled: false, now: new Date() });
    for (const ping of pings) await spool.append(ping);
    await spool.append(pings[1] as PingItem); // an entry whose XDEL was lost, appended again
    await spool.append(item({ id: "mon_unknown", teamId }));

    const recorder = new PingRecorder({
      pool,
      spool,
      lastKnown: new LastKnownMonitors(),
      log,
      onIncident: async () => undefined,
    });
    let more = true;
    while (more)
      more = await drainSpool({
        pool,
        spool,
        recorder,
        lastKnown: new LastKnownMonitors(),
        log,
        onIncident: async () => undefined,
      });

    expect(await stored(monitor.id)).toEqual([
      { status: "down", reason: "a" },
      { status: "down", reason: "b" },
      { status: "up", reason: null },
    ]);
    expect(await spool.length()).toBe(0);
    expect(await redis.xlen(`${spool.key}:dead`)).toBe(1);
    expect(recorder.spooling).toBe(false);
    const current = await client.getMonitor(monitor.id);
    expect(current).toMatchObject({ status: "up", monitoringActive: true });
    const { rows } = await db.query("SELECT kind FROM monitors.incident_actions WHERE monitor_id = $1 ORDER BY id", [
      monitor.id,
    ]);
    expect(rows.map((row) => row.kind)).toEqual(["raise", "raise", "resolve"]);
  });

  it("without a spool, a ping during an outage is refused UNAVAILABLE and the next one after it is stored", async () => {
    const { teamId } = await client.createTeam();
    const monitor = await client.createMonitor(teamId);
    const proxy = await TcpProxy.start(hostPortOf(stack.databaseUrl, 5432));
    const viaProxy = new URL(stack.databaseUrl);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    const proxied = createPgPool({ url: viaProxy.toString(), max: 2, connectTimeoutMs: 1_000, queryTimeoutMs: 1_000 });
    try {
      const recorder = new PingRecorder({
        pool: proxied,
        spool: new PingSpool(null, stack.databaseUrl),
        lastKnown: new LastKnownMonitors(),
        log,
        onIncident: async () => undefined,
      });
      const input = (reason: string) => {
        const { pingId: _pingId, receivedAt: _receivedAt, ...rest } = item({ id: monitor.id, teamId }, { reason });
        return { ...rest, receivedAt: null };
      };
      await proxy.cut();
      await expect(recorder.record([input("lost")])).rejects.toMatchObject({
        name: "UnavailableError",
        code: "service_unavailable",
        message: expect.stringContaining("the ping was not stored"),
      });
      expect(recorder.spooling).toBe(false);
      await proxy.restore();
      const [result] = await recorder.record([input("kept")]);
      expect(result?.outcome).toBe("recorded");
      expect((await stored(monitor.id)).map((row) => row.reason)).toEqual(["kept"]);
    } finally {
      await proxied.end();
      await proxy.close();
    }
  });
});
