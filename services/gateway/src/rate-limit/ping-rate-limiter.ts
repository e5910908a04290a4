import { randomUUID } from "node:crypto";
import type { Logger } from "@pulsegate/logger";
import type { Redis } from "ioredis";
import type { RateDecision } from "./rate-limit-headers.ts";

/** Spec §8: 10 pings per minute per ping URL. */
export const PING_LIMIT = 10;
export const PING_WINDOW_MS = 60_000;

/**
 * Sliding-window log in one atomic step: a sorted set per ping URL holds the
 * times of accepted pings; entries older than the window are dropped, and the
 * ping is admitted (and logged) only if fewer than `limit` remain, so refused
 * pings never count. Redis's own clock keeps gateway replicas in agreement.
 * KEYS[1] key; ARGV window ms, limit, unique member suffix.
 * Returns {admitted 0|1, remaining, ms until the oldest logged ping leaves the window}.
 */
const SLIDING_WINDOW_LOG = `
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local admitted = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  admitted = 1
  count = count + 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {admitted, limit - count, tonumber(oldest[2]) + window - now}
`;

type WithCommand = Redis & {
  pulsegatePingWindow: (
    key: string,
    windowMs: number,
    limit: number,
    member: string,
  ) => Promise<[number, number, number]>;
};

const MAX_LOCAL_KEYS = 100_000;

/** The same log in process memory, used while Redis is unreachable (per gateway replica). */
export function createLocalWindowLog(windowMs: number, limit: number, now: () => number = Date.now) {
  const logs = new Map<string, number[]>();
  return (key: string): RateDecision => {
    const time = now();
    const kept = (logs.get(key) ?? []).filter((at) => at > time - windowMs);
    const admitted = kept.length < limit;
    if (admitted) kept.push(time);
    logs.delete(key);
    if (logs.size >= MAX_LOCAL_KEYS) {
      const oldest = logs.keys().next();
      if (!oldest.done) logs.delete(oldest.value);
    }
    logs.set(key, kept);
    return { allowed: admitted, limit, remaining: limit - kept.length, resetMs: (kept[0] ?? time) + windowMs - time };
  };
}

export type PingRateLimiter = { consume: (pingUrl: string) => Promise<RateDecision> };

/** More than 10 accepted pings in any rolling 60 s for one ping URL → refused (DESIGN §2 step 5). */
export function createPingRateLimiter(options: {
  redis: Redis;
  log: Pick<Logger, "info" | "warn">;
  limit?: number;
  windowMs?: number;
  keyPrefix?: string;
}): PingRateLimiter {
  const { redis, log, limit = PING_LIMIT, windowMs = PING_WINDOW_MS, keyPrefix = "pulsegate:ping-rl:" } = options;
  redis.defineCommand("pulsegatePingWindow", { numberOfKeys: 1, lua: SLIDING_WINDOW_LOG });
  const local = createLocalWindowLog(windowMs, limit);
  let fallingBack = false;
  redis.on("ready", () => {
    if (!fallingBack) return;
    fallingBack = false;
    log.info("Redis is reachable again: ping limits are shared across replicas");
  });

  return {
    consume: async (pingUrl) => {
      try {
        const [admitted, remaining, resetMs] = await (redis as WithCommand).pulsegatePingWindow(
          `${keyPrefix}${pingUrl}`,
          windowMs,
          limit,
          randomUUID(),
        );
        return { allowed: admitted === 1, limit, remaining, resetMs };
      } catch (error) {
        if (!fallingBack) {
          fallingBack = true;
          log.warn(
            { err: error },
            "Redis is unreachable: ping limits fall back to in-process logs (per gateway replica)",
          );
        }
        return local(pingUrl);
      }
    },
  };
}
