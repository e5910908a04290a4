import { randomUUID } from "node:crypto";
import { createLogger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLocalReplayLog,
  createReplayGuard,
  replayClaimOf,
} from "../../services/gateway/src/pipeline/replay-guard.ts";
import { createPingRateLimiter } from "../../services/gateway/src/rate-limit/ping-rate-limiter.ts";
import { REDIS_URL } from "../../services/gateway/src/testing/build-test-app.ts";

const log = createLogger("replay-guard-test", "silent");
const SIGNATURE = "ab".repeat(32);

describe("replayClaimOf", () => {
  it("names one key for every spelling of a signature, and lives until the timestamp is out of tolerance", () => {
    const now = 1_000_000_000_000;
    const claim = replayClaimOf("wh_1", SIGNATURE, now / 1000, "", now);
    expect(replayClaimOf("wh_1", `SHA256=${SIGNATURE.toUpperCase()}`, now / 1000, "", now).key).toBe(claim.key);
    expect(replayClaimOf("wh_2", SIGNATURE, now / 1000, "", now).key).not.toBe(claim.key);
    expect(claim.ttlMs).toBe(305_000);
    // A timestamp 300 s old is taken at the edge of the window: its claim still outlives it.
    expect(replayClaimOf("wh_1", SIGNATURE, now / 1000 - 300, "", now).ttlMs).toBe(5_000);
  });
});

describe("createLocalReplayLog", () => {
  it("takes a claim once until it expires; a repeat with the first one's idempotency key passes", () => {
    let time = 1_000;
    const claim = createLocalReplayLog(() => time);
    const plain = { key: "a", ttlMs: 1_000, idempotencyKey: "" };
    expect(claim(plain)).toBe(true);
    expect(claim(plain)).toBe(false);
    const keyed = { key: "b", ttlMs: 1_000, idempotencyKey: "retry-1" };
    expect(claim(keyed)).toBe(true);
    expect(claim(keyed)).toBe(true);
    expect(claim({ ...keyed, idempotencyKey: "other" })).toBe(false);
    expect(claim({ ...keyed, idempotencyKey: "" })).toBe(false);
    time = 2_000;
    expect(claim(plain)).toBe(false);
    time = 2_001;
    expect(claim(plain)).toBe(true);
  });
});

describe("createReplayGuard and the ping window (real Redis)", () => {
  const redis = connectRedis(REDIS_URL, log);
  beforeAll(async () => {
    if (redis.status !== "ready") await new Promise((ready) => redis.once("ready", ready));
  });
  afterAll(() => redis.disconnect());

  it("takes each claim once across guards (replicas), in one batch or several", async () => {
    const first = createReplayGuard({ redis, log });
    const second = createReplayGuard({ redis, log });
    const claim = { key: `pulsegate-test:replay:${randomUUID()}`, ttlMs: 10_000, idempotencyKey: "" };
    const taken = await Promise.all([first.claim(claim), first.claim(claim), second.claim(claim)]);
    expect(taken.filter(Boolean)).toHaveLength(1);
    expect(await redis.pttl(claim.key)).toBeGreaterThan(9_000);
    const keyed = { key: `pulsegate-test:replay:${randomUUID()}`, ttlMs: 10_000, idempotencyKey: "k-1" };
    expect([await first.claim(keyed), await second.claim(keyed)]).toEqual([true, true]);
    expect(await second.claim({ ...keyed, idempotencyKey: "k-2" })).toBe(false);
  });

  it("refuses a replayed ping in the window's own step, without logging it", async () => {
    const limiter = createPingRateLimiter({ redis, log, limit: 3 });
    const pingUrl = randomUUID();
    const claim = { key: `pulsegate-test:replay:${randomUUID()}`, ttlMs: 10_000, idempotencyKey: "" };
    expect(await limiter.consume(pingUrl, true, claim)).toMatchObject({ allowed: true, replayed: false, remaining: 2 });
    for (let i = 0; i < 3; i++) {
      expect(await limiter.consume(pingUrl, true, claim)).toMatchObject({
        allowed: false,
        replayed: true,
        remaining: 2,
      });
    }
    // A ping that is not acceptable (invalid body, dry run) does not take its claim.
    const unused = { key: `pulsegate-test:replay:${randomUUID()}`, ttlMs: 10_000, idempotencyKey: "" };
    expect(await limiter.consume(pingUrl, false, unused)).toMatchObject({ allowed: true, replayed: false });
    expect(await redis.exists(unused.key)).toBe(0);
  });

  it("does the same in process without Redis", async () => {
    const limiter = createPingRateLimiter({ log, limit: 3 });
    const claim = { key: "in-process", ttlMs: 10_000, idempotencyKey: "" };
    expect(await limiter.consume("p", true, claim)).toMatchObject({ allowed: true, replayed: false, remaining: 2 });
    expect(await limiter.consume("p", true, claim)).toMatchObject({ allowed: false, replayed: true, remaining: 2 });
  });
});
