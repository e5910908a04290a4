// /readyz is the gateway's own readiness (200 while it serves) and reports
// its peers, Redis and how durable the ping spool is, as Redis's own settings say.
import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";

const stack = inject("stack");
const redis = new Redis(stack.redisUrl, { lazyConnect: true });
afterAll(() => redis.disconnect());

describe("/readyz", () => {
  it("is 200 with every peer up, and reports the spool's durability from Redis's settings", async () => {
    await redis.connect();
    const [, appendonly] = (await redis.config("GET", "appendonly")) as [string, string];
    const [, appendfsync] = (await redis.config("GET", "appendfsync")) as [string, string];
    const expected = appendonly !== "yes" ? "not_durable" : appendfsync === "always" ? "durable" : "aof_not_fsynced";

    const response = await fetch(`${stack.baseUrl}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      status: string;
      checks: Record<string, string>;
      spool: { durability: string; depth: number };
    };
    expect(body.checks).toEqual({ auth: "up", alerts: "up", monitors: "up", redis: "up" });
    expect(body.spool).toEqual({ durability: expected, depth: 0 });
    expect(body.status).toBe(expected === "durable" ? "ready" : "degraded");
  });
});
