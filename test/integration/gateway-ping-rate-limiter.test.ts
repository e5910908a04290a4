import { randomUUID } from "node:crypto";
import { createLogger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLocalWindowLog,
  createPingRateLimiter,
} from "../../services/gateway/src/rate-limit/ping-rate-limiter.ts";
import { REDIS_URL } from "../../services/gateway/src/testing/build-test-app.ts";

const log = createLogger("ping-rate-limiter-test", "silent");

describe("createLocalWindowLog", () => {
  it("admits 10 in any rolling minute, refuses without counting, and frees a slot as the oldest leaves", () => {
    let time = 0;
    const window = createLocalWindowLog(60_000, 10, () => time);
    const consume = (key: string) => window.consume(key, randomUUID(), true);
    for (let i = 0; i < 10; i++) {
      time = i * 1_000;
      expect(consume("a").allowed).toBe(true);
    }
    time = 30_000;
    const refused = consume("a");
    expect(refused).toMatchObject({ allowed: false, logged: false, remaining: 0, resetMs: 30_000 });
    expect(consume("b").allowed).toBe(true);
    time = 60_000; // the ping at 0 leaves the window
    expect(consume("a").allowed).toBe(true);
    expect(consume("a").allowed).toBe(false);
  });

  it("logs nothing for a ping that is not acceptable, and forgets a released one", () => {
    const window = createLocalWindowLog(60_000, 2, () => 0);
    for (let i = 0; i < 5; i++)
      expect(window.consume("a", `bad-${i}`, false)).toMatchObject({ allowed: true, logged: false });
    expect(window.consume("a", "one", true).logged).toBe(true);
    window.release("a", "one");
    expect(window.consume("a", "two", true).remaining).toBe(1);
    expect(window.consume("a", "three", true).remaining).toBe(0);
    expect(window.consume("a", "four", true).allowed).toBe(false);
  });
});

describe("createPingRateLimiter (real Redis)", () => {
  const redis = connectRedis(REDIS_URL, log);
  const dead = connectRedis("redis://127.0.0.1:1", log);
  // Until the client is connected, limits fall back to the in-process log by design.
  beforeAll(async () => {
    if (redis.status !== "ready") await new Promise((ready) => redis.once("ready", ready));
  });
  afterAll(() => {
    redis.disconnect();
    dead.disconnect();
  });

  it("admits 10 pings per ping URL and refuses the 11th with the time until a slot frees", async () => {
    const limiter = createPingRateLimiter({ redis, log });
    const key = randomUUID();
    const decisions = [];
    for (let i = 0; i < 11; i++) decisions.push(await limiter.consume(key, true));
    expect(decisions.slice(0, 10).every((decision) => decision.allowed && decision.logged)).toBe(true);
    expect(decisions[9]?.remaining).toBe(0);
    const last = decisions[10];
    expect(last?.allowed).toBe(false);
    expect(last?.resetMs).toBeGreaterThan(50_000);
    expect(last?.resetMs).toBeLessThanOrEqual(60_000);
    expect((await limiter.consume(randomUUID(), true)).allowed).toBe(true);
  });

  it("counts only acceptable pings, and a released one leaves the window", async () => {
    const limiter = createPingRateLimiter({ redis, log, limit: 2 });
    const key = randomUUID();
    for (let i = 0; i < 10; i++) expect((await limiter.consume(key, false)).logged).toBe(false);
    const first = await limiter.consume(key, true);
    expect(first).toMatchObject({ allowed: true, logged: true, remaining: 1 });
    await first.release();
    expect((await limiter.consume(key, true)).remaining).toBe(1);
    expect((await limiter.consume(key, true)).remaining).toBe(0);
    expect((await limiter.consume(key, true)).allowed).toBe(false);
    // A full window refuses an unacceptable ping too: step 5 comes before step 6.
    expect((await limiter.consume(key, false)).allowed).toBe(false);
  });

  it("admits exactly 10 of 15 concurrent pings of one URL (one batch, taken in order)", async () => {
    const limiter = createPingRateLimiter({ redis, log });
    const key = randomUUID();
    const decisions = await Promise.all(Array.from({ length: 15 }, (_, i) => limiter.consume(key, i % 5 !== 0)));
    // Pings 0, 5 and 10 are not acceptable: allowed while the window has room, never logged.
    expect(decisions.filter((decision) => decision.logged)).toHaveLength(10);
    expect(decisions.map((decision) => decision.allowed)).toEqual([...Array(13).fill(true), false, false]);
  });

  it("keeps a rolling window: refused pings do not extend it", async () => {
    const limiter = createPingRateLimiter({ redis, log, limit: 2, windowMs: 300 });
    const key = randomUUID();
    expect((await limiter.consume(key, true)).allowed).toBe(true);
    expect((await limiter.consume(key, true)).allowed).toBe(true);
    expect((await limiter.consume(key, true)).allowed).toBe(false);
    await new Promise((done) => setTimeout(done, 350));
    expect((await limiter.consume(key, true)).allowed).toBe(true);
  });

  it("falls back to in-process logs when Redis is unreachable", async () => {
    const limiter = createPingRateLimiter({ redis: dead, log, limit: 2 });
    const key = randomUUID();
    expect((await limiter.consume(key, true)).allowed).toBe(true);
    expect((await limiter.consume(key, true)).allowed).toBe(true);
    expect((await limiter.consume(key, true)).allowed).toBe(false);
  });
});
