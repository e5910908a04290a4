// A failed drain: the spool (real Redis) holds pings while PostgreSQL is still away. The drain must
// keep every entry, in order, keep new pings going to the spool behind them, and release its lock
// so that the next drain can run.
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { createPgPool, type PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { isTransientError } from "@pulsegate/runtime/transient-error";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LastKnownMonitors } from "../../services/monitors/src/monitors/last-known-monitors.ts";
import type { PingItem } from "../../services/monitors/src/pings/ping-item.ts";
import { PingRecorder } from "../../services/monitors/src/pings/record-pings.ts";
import { drainSpool } from "../../services/monitors/src/spool/drain-spool.ts";
import { PingSpool } from "../../services/monitors/src/spool/ping-spool.ts";

const stack = inject("stack");
const log = createLogger("spool-drain-failure-test", "silent");
let redis: Redis;
let spool: PingSpool;
let awayPool: PgPool;

beforeAll(async () => {
  // A port nothing listens on: the database is away.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  awayPool = createPgPool({ url: `postgres://pulsegate@127.0.0.1:${port}/away`, max: 1 });
  redis = new Redis(stack.redisUrl);
  // A spool of its own (keys are named after the database in the URL), so the stack's monitors never drain it.
  spool = new PingSpool(redis, `postgres://localhost/spool_failure_test_${process.pid}_${Date.now()}`);
});

afterAll(async () => {
  await redis.del(spool.key, `${spool.key}:dead`, `${spool.key}:drain-lock`);
  redis.disconnect();
  await awayPool.end();
});

const ping = (receivedAt: Date): PingItem => ({
  pingId: randomUUID(),
  monitorId: randomUUID(),
  teamId: randomUUID(),
  status: "up",
  reason: null,
  groupKey: null,
  metadataJson: null,
  method: "GET",
  receivedAt,
  heartbeatQuotaMonthly: 0,
  alertQuotaMonthly: 0,
});

describe("a drain while the database is away", () => {
  it("fails, keeps every entry in order, keeps spooling on and releases its lock", async () => {
    const lastKnown = new LastKnownMonitors();
    const recorder = new PingRecorder({ pool: awayPool, spool, lastKnown, log, onIncident: async () => undefined });
    const deps = { pool: awayPool, spool, recorder, lastKnown, log, onIncident: () => undefined };
    const first = await spool.append(ping(new Date("2026-01-01T00:00:00Z")));
    const second = await spool.append(ping(new Date("2026-01-01T00:00:01Z")));

    await expect(drainSpool(deps)).rejects.toSatisfy(isTransientError);
    expect((await spool.oldest(10)).entries.map((entry) => entry.entryId)).toEqual([first, second]);
    expect(await redis.xlen(`${spool.key}:dead`)).toBe(0);
    expect(recorder.spooling).toBe(true);

    // The lock is free again: the next drain gets it (and fails the same way).
    expect(await redis.exists(`${spool.key}:drain-lock`)).toBe(0);
    await expect(drainSpool(deps)).rejects.toSatisfy(isTransientError);
    expect(await spool.length()).toBe(2);
  });
});
