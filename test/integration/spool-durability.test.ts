// The monitors service reads Redis's persistence settings, so an operator learns
// that spooled pings would not survive a Redis restart. A Redis of its own, whose settings the test
// changes with CONFIG SET.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PingSpool } from "../../services/monitors/src/spool/ping-spool.ts";
import { describeSpool, durabilityWarning } from "../../services/monitors/src/spool/spool-durability.ts";
import { freePort } from "../support/free-port.ts";

let server: ChildProcess;
let redis: Redis;
let dir: string;

beforeAll(async () => {
  const port = await freePort();
  dir = mkdtempSync(join(tmpdir(), "pulsegate-redis-"));
  server = spawn("redis-server", [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--save",
    "",
    "--appendonly",
    "yes",
    "--appendfsync",
    "always",
  ]);
  redis = connectRedis(`redis://127.0.0.1:${port}`, createLogger("test", "silent"));
  for (let attempt = 0; redis.status !== "ready" && attempt < 100; attempt++) {
    await new Promise((done) => setTimeout(done, 50));
  }
});

afterAll(async () => {
  await redis?.quit().catch(() => undefined);
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("spool durability", () => {
  it("follows Redis's appendonly and appendfsync settings", async () => {
    const spool = new PingSpool(redis, "postgres://x@127.0.0.1/durability");
    const durable = await describeSpool(spool, false);
    expect(durable).toEqual({
      durability: "durable",
      appendonly: "yes",
      appendfsync: "always",
      depth: 0,
      spooling: false,
    });
    expect(durabilityWarning(durable)).toBeNull();

    await redis.config("SET", "appendfsync", "everysec");
    expect((await describeSpool(spool, false)).durability).toBe("aof_not_fsynced");

    await redis.config("SET", "appendonly", "no");
    const volatile = await describeSpool(spool, true);
    expect(volatile).toMatchObject({ durability: "not_durable", appendonly: "no", spooling: true });
    expect(durabilityWarning(volatile)).toMatch(/NOT durable/);
  });

  it("says none without a Redis, and unknown when Redis cannot be asked", async () => {
    expect((await describeSpool(new PingSpool(null, "postgres://x@127.0.0.1/none"), false)).durability).toBe("none");
    const gone = connectRedis("redis://127.0.0.1:1", createLogger("test", "silent"));
    try {
      const status = await describeSpool(new PingSpool(gone, "postgres://x@127.0.0.1/gone"), false);
      expect(status).toMatchObject({ durability: "unknown", depth: -1 });
    } finally {
      gone.disconnect();
    }
  });
});
