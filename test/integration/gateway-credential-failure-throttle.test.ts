import { randomUUID } from "node:crypto";
import type { Logger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCredentialFailureThrottle } from "../../services/gateway/src/rate-limit/credential-failure-throttle.ts";
import { REDIS_URL } from "../../services/gateway/src/testing/build-test-app.ts";

function recordingLog() {
  const warnings: string[] = [];
  const log = {
    // pino's forms: (message) and (fields, message).
    warn: (...args: unknown[]) => warnings.push(String(args.at(-1))),
    info: () => {},
    debug: () => {},
  } as unknown as Logger;
  return { log, warnings };
}

describe("failed credentials per client address, counted in Redis", () => {
  let redis: Redis;
  const prefix = `pulsegate-test:${randomUUID()}`;
  beforeAll(async () => {
    redis = connectRedis(REDIS_URL, recordingLog().log);
    if (redis.status !== "ready") await new Promise((resolve) => redis.once("ready", resolve));
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("blocks an address for blockSeconds once it reached the limit, on every replica, and no other address", async () => {
    const options = { redis, log: recordingLog().log, keyPrefix: prefix, limit: 3, blockSeconds: 30 };
    const [one, two] = [createCredentialFailureThrottle(options), createCredentialFailureThrottle(options)];
    await one.recordFailure("203.0.113.7");
    await two.recordFailure("203.0.113.7");
    expect(await one.blockedForMs("203.0.113.7")).toBe(0);
    await one.recordFailure("203.0.113.7");
    for (const replica of [one, two]) {
      const blocked = await replica.blockedForMs("203.0.113.7");
      expect(blocked).toBeGreaterThan(25_000);
      expect(blocked).toBeLessThanOrEqual(30_000);
    }
    expect(await two.blockedForMs("203.0.113.8")).toBe(0);
  });

  it("counts failures under concurrency exactly", async () => {
    const throttle = createCredentialFailureThrottle({
      redis,
      log: recordingLog().log,
      keyPrefix: prefix,
      limit: 20,
      blockSeconds: 30,
    });
    await Promise.all(Array.from({ length: 19 }, () => throttle.recordFailure("203.0.113.9")));
    expect(await throttle.blockedForMs("203.0.113.9")).toBe(0);
    await throttle.recordFailure("203.0.113.9");
    expect(await throttle.blockedForMs("203.0.113.9")).toBeGreaterThan(0);
  });

  it("counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 one", async () => {
    const throttle = createCredentialFailureThrottle({
      redis,
      log: recordingLog().log,
      keyPrefix: prefix,
      limit: 2,
      blockSeconds: 30,
    });
    await throttle.recordFailure("2001:db8:1:2::1");
    await throttle.recordFailure("2001:db8:1:2:ffff::9");
    expect(await throttle.blockedForMs("2001:0db8:0001:0002:0000:0000:0000:0042")).toBeGreaterThan(0);
    expect(await throttle.blockedForMs("2001:db8:1:3::1")).toBe(0);

    await throttle.recordFailure("::ffff:192.0.2.44");
    await throttle.recordFailure("192.0.2.44");
    expect(await throttle.blockedForMs("192.0.2.44")).toBeGreaterThan(0);
  });
});

describe("failed credentials with no Redis, or Redis unreachable", () => {
  it("are counted in process", async () => {
    const throttle = createCredentialFailureThrottle({ log: recordingLog().log, limit: 2, blockSeconds: 30 });
    await throttle.recordFailure("203.0.113.7");
    expect(await throttle.blockedForMs("203.0.113.7")).toBe(0);
    await throttle.recordFailure("203.0.113.7");
    expect(await throttle.blockedForMs("203.0.113.7")).toBeGreaterThan(25_000);
    expect(await throttle.blockedForMs("203.0.113.8")).toBe(0);
  });

  it("fall back to in-process counts while Redis is away, and warn once", async () => {
    const { log, warnings } = recordingLog();
    const redis = connectRedis("redis://127.0.0.1:1", log);
    try {
      const throttle = createCredentialFailureThrottle({
        redis,
        log,
        keyPrefix: `pulsegate-test:${randomUUID()}`,
        limit: 2,
        blockSeconds: 30,
      });
      expect(await throttle.blockedForMs("203.0.113.7")).toBe(0);
      await throttle.recordFailure("203.0.113.7");
      await throttle.recordFailure("203.0.113.7");
      expect(await throttle.blockedForMs("203.0.113.7")).toBeGreaterThan(25_000);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/in process/);
    } finally {
      redis.disconnect();
    }
  });
});
