import { randomUUID } from "node:crypto";
import { createLogger } from "@pulsegate/logger";
import { connectRedis } from "@pulsegate/redis";
import { afterAll, describe, expect, it } from "vitest";
import { REDIS_URL } from "../testing/build-test-app.ts";
import { createLocalWindowLog, createPingRateLimiter } from "./ping-rate-limiter.ts";

const log = createLogger("ping-rate-limiter-test", "silent");

describe("createLocalWindowLog", () => {
  it("admits 10 in any rolling minute, refuses without counting, and frees a slot as the oldest leaves", () => {
    let time = 0;
    const consume = createLocalWindowLog(60_000, 10, () => time);
    for (let i = 0; i < 10; i++) {
      time = i * 1_000;
      expect(consume("a").allowed).toBe(true);
    }
    time = 30_000;
    const refused = consume("a");
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetMs: 30_000 });
    expect(consume("b").allowed).toBe(true);
    time = 60_000; // the ping at 0 leaves the window
    expect(consume("a").allowed).toBe(true);
    expect(consume("a").allowed).toBe(false);
  });
});

describe("createPingRateLimiter (real Redis)", () => {
  const redis = connectRedis(REDIS_URL, log);
  const dead = connectRedis("redis://127.0.0.1:1", log);
  afterAll(() => {
    redis.disconnect();
    dead.disconnect();
  });

  it("admits 10 pings per ping URL and refuses the 11th with the time until a slot frees", async () => {
    const limiter = createPingRateLimiter({ redis, log });
    const key = randomUUID();
    const decisions = [];
    for (let i = 0; i < 11; i++) decisions.push(await limiter.consume(key));
    expect(decisions.slice(0, 10).every((decision) => decision.allowed)).toBe(true);
    expect(decisions[9]?.remaining).toBe(0);
    const last = decisions[10];
    expect(last?.allowed).toBe(false);
    expect(last?.resetMs).toBeGreaterThan(50_000);
    expect(last?.resetMs).toBeLessThanOrEqual(60_000);
    expect((await limiter.consume(randomUUID())).allowed).toBe(true);
  });

  it("keeps a rolling window: refused pings do not extend it", async () => {
    const limiter = createPingRateLimiter({ redis, log, limit: 2, windowMs: 300 });
    const key = randomUUID();
    expect((await limiter.consume(key)).allowed).toBe(true);
    expect((await limiter.consume(key)).allowed).toBe(true);
    expect((await limiter.consume(key)).allowed).toBe(false);
    await new Promise((done) => setTimeout(done, 350));
    expect((await limiter.consume(key)).allowed).toBe(true);
  });

  it("falls back to in-process logs when Redis is unreachable", async () => {
    const limiter = createPingRateLimiter({ redis: dead, log, limit: 2 });
    const key = randomUUID();
    expect((await limiter.consume(key)).allowed).toBe(true);
    expect((await limiter.consume(key)).allowed).toBe(true);
    expect((await limiter.consume(key)).allowed).toBe(false);
  });
});
