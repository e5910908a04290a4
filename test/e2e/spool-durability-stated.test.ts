// A managed Redis that refuses CONFIG (renamed away, as some providers do) cannot tell monitors
// whether spooled pings survive a restart: the spool's durability is "unknown" and the gateway's
// readiness "degraded" for good. REDIS_DURABILITY lets the operator state it instead: readiness
// then uses the stated value, and monitors says once that it was stated, not probed.
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.ts";
import { RedisServer } from "../support/redis-server.ts";
import { Stack } from "../support/stack.ts";

let redis: RedisServer | undefined;
let stack: Stack | undefined;

afterAll(async () => {
  await stack?.destroy();
  await redis?.destroy();
});

type Readiness = { status: string; checks: Record<string, string>; spool: { durability: string; depth: number } };
const readiness = async () => (await (await fetch(`${stack?.info.baseUrl}/readyz`)).json()) as Readiness;

describe("REDIS_DURABILITY with a Redis that refuses CONFIG", () => {
  it("is degraded (durability unknown) when probed, ready when stated durable", async () => {
    redis = await RedisServer.start(["--rename-command", "CONFIG", ""]);
    const client = new Redis(redis.url, { lazyConnect: true });
    await client.connect();
    await expect(client.config("GET", "appendonly")).rejects.toThrow(/unknown command/i);
    client.disconnect();

    stack = await Stack.create({ databaseName: `pulsegate_durability_stated_${process.pid}`, redisUrl: redis.url });
    const probed = await readiness();
    expect(probed.checks).toEqual({ auth: "up", alerts: "up", monitors: "up", redis: "up" });
    expect(probed.spool).toEqual({ durability: "unknown", depth: 0 });
    expect(probed.status).toBe("degraded");
    expect(stack.output()).toContain("CONFIG GET refused or unreachable");

    stack.configure({ REDIS_DURABILITY: "durable" });
    await stack.stop("monitors");
    stack.start("monitors");
    const stated = await eventually(
      async () => {
        const body = await readiness();
        return body.checks.monitors === "up" ? body : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: "monitors back" },
    );
    expect(stated).toEqual({
      status: "ready",
      checks: { auth: "up", alerts: "up", monitors: "up", redis: "up" },
      spool: { durability: "durable", depth: 0 },
    });
    const said = stack
      .output()
      .split("\n")
      .filter((line) => line.includes("stated by REDIS_DURABILITY, not probed"));
    expect(said).toHaveLength(1);
    // A stack of its own and a restart of monitors: up to a minute under the whole suite on a slow machine.
  }, 120_000);
});
