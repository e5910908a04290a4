import { randomUUID } from "node:crypto";
import type { Logger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter } from "../../services/gateway/src/rate-limit/webhook-rate-limiter.ts";
import { REDIS_URL } from "../../services/gateway/src/testing/build-test-app.ts";

function recordingLog() {
  const warnings: string[] = [];
  const log = {
    warn: (message: string) => warnings.push(message),
    info: () => {},
    debug: () => {},
  } as unknown as Logger;
  return { log, warnings };
}

async function waitUntilReady(redis: Redis): Promise<void> {
  if (redis.status !== "ready") await new Promise((resolve) => redis.once("ready", resolve));
}

describe("rate limiter on the real Redis", () => {
  let redis: Redis;
  const prefix = `pulsegate-test:${randomUUID()}`;
  beforeAll(async () => {
    redis = connectRedis(REDIS_URL, recordingLog().log);
    await waitUntilReady(redis);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("admits exactly the limit, refuses the rest without counting them", async () => {
    const limiter = createRateLimiter({ redis, log: recordingLog().log, keyPrefix: prefix });
    const decisions = [];
    for (let i = 0; i < 8; i++) decisions.push(await limiter.consume("webhook:sequential", 5));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(decisions.map((decision) => decision.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    const refused = decisions[7];
    expect(refused?.resetMs).toBeGreaterThan(0);
    expect(refused?.resetMs).toBeLessThanOrEqual(60_000);
    expect(await redis.get(`${prefix}:webhook:sequential`)).toBe("5");
  });

  it("admits exactly the limit under concurrency", async () => {
    const limiter = createRateLimiter({ redis, log: recordingLog().log, keyPrefix: prefix });
    const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.consume("webhook:concurrent", 7)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(7);
    expect(await redis.get(`${prefix}:webhook:concurrent`)).toBe("7");
  });

  it("keeps the counters of the previous release's limiter (rate-limiter-flexible), so gateways agree during a roll", async () => {
    // As RateLimiterRedis left it: `<prefix>:<key>`, the count, expiring with the window.
    await redis.set(`${prefix}:webhook:rolled`, "3", "EX", 60);
    const limiter = createRateLimiter({ redis, log: recordingLog().log, keyPrefix: prefix });
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await limiter.consume("webhook:rolled", 5));
    expect(decisions.map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(await redis.get(`${prefix}:webhook:rolled`)).toBe("5");
    expect(await redis.pttl(`${prefix}:webhook:rolled`)).toBeGreaterThan(50_000);
  });

  it("counts each key separately", async () => {
    const limiter = createRateLimiter({ redis, log: recordingLog().log, keyPrefix: prefix });
    expect((await limiter.consume("webhook:a", 1)).allowed).toBe(true);
    expect((await limiter.consume("webhook:a", 1)).allowed).toBe(false);
    expect((await limiter.consume("webhook:b", 1)).allowed).toBe(true);
  });

  it("starts a new window when the old one ends", async () => {
    const limiter = createRateLimiter({ redis, log: recordingLog().log, keyPrefix: prefix, windowSeconds: 1 });
    expect((await limiter.consume("webhook:window", 1)).allowed).toBe(true);
    const refused = await limiter.consume("webhook:window", 1);
    expect(refused.allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, refused.resetMs + 50));
    expect((await limiter.consume("webhook:window", 1)).allowed).toBe(true);
  });
});

describe("rate limiter with Redis unreachable", () => {
  it("falls back to in-process limits, still serving, and warns once", async () => {
    const { log, warnings } = recordingLog();
    const redis = connectRedis("redis://127.0.0.1:1", log);
    try {
      const limiter = createRateLimiter({ redis, log, keyPrefix: `pulsegate-test:${randomUUID()}` });
      const decisions = [];
      for (let i = 0; i < 6; i++) decisions.push(await limiter.consume("webhook:offline", 4));
      expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, false, false]);
      expect(decisions[5]?.resetMs).toBeGreaterThan(0);
      const concurrent = await Promise.all(Array.from({ length: 20 }, () => limiter.consume("webhook:other", 3)));
      expect(concurrent.filter((decision) => decision.allowed)).toHaveLength(3);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/in-process/);
    } finally {
      redis.disconnect();
    }
  });
});
