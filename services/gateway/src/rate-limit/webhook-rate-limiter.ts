import type { Logger } from "@pulsegate/runtime/logger";
import type { Redis } from "ioredis";
import { type IRateLimiterOptions, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { RateDecision } from "./rate-limit-headers.ts";

/**
 * Fixed window, one round trip: the library's script with one change — a
 * request that would go over the limit is refused WITHOUT being counted, so
 * the counter never exceeds the limit. KEYS[1] key; ARGV points, window
 * seconds, limit. Returns {count including this request, ms left}.
 */
const CONSUME_UNLESS_OVER_LIMIT = `
redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local consumed = tonumber(redis.call('get', KEYS[1])) + tonumber(ARGV[1])
if consumed <= tonumber(ARGV[3]) then
  redis.call('incrby', KEYS[1], ARGV[1])
end
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}
`;

/** In-process limits used while Redis is unreachable; a refused request is not counted either. */
class InProcessFallback extends RateLimiterMemory {
  readonly #onUse: () => void;

  constructor(options: IRateLimiterOptions, onUse: () => void) {
    super(options);
    this.#onUse = onUse;
  }

  override consume(key: string | number, points = 1, options?: { [key: string]: unknown }) {
    this.#onUse();
    return super.consume(key, points, options).catch((rejection: unknown) => {
      if (rejection instanceof RateLimiterRes) void this.reward(key, points);
      throw rejection;
    });
  }
}

export type RateLimiter = {
  /** Admits at most `limit` requests per window for `key`. Never rejects for a Redis failure. */
  consume: (key: string, limit: number) => Promise<RateDecision>;
};

export function createRateLimiter(options: {
  /** None: in-process limits only (per gateway replica), as while Redis is unreachable. */
  redis?: Redis | undefined;
  log: Logger;
  windowSeconds?: number;
  keyPrefix?: string;
}): RateLimiter {
  const { redis, log, windowSeconds = 60, keyPrefix = "pulsegate:rl" } = options;
  let fallingBack = false;
  const onFallback = () => {
    if (fallingBack) return;
    fallingBack = true;
    log.warn("Redis is unreachable: rate limits fall back to in-process counters (per gateway replica)");
  };
  redis?.on("ready", () => {
    if (!fallingBack) return;
    fallingBack = false;
    log.info("Redis is reachable again: rate limits are shared across replicas");
  });

  // One limiter per distinct limit value; limits are few (set per webhook by admins).
  const limiters = new Map<number, RateLimiterRedis | InProcessFallback>();
  const limiterFor = (limit: number) => {
    let limiter = limiters.get(limit);
    if (!limiter) {
      const shape = { points: limit, duration: windowSeconds, keyPrefix };
      const inProcess = new InProcessFallback(shape, redis ? onFallback : () => undefined);
      limiter = redis
        ? new RateLimiterRedis({
            ...shape,
            storeClient: redis,
            rejectIfRedisNotReady: true,
            customIncrTtlLuaScript: CONSUME_UNLESS_OVER_LIMIT,
            insuranceLimiter: inProcess,
          })
        : inProcess;
      limiters.set(limit, limiter);
    }
    return limiter;
  };

  return {
    consume: async (key, limit) => {
      try {
        const result = await limiterFor(limit).consume(key);
        return { allowed: true, limit, remaining: result.remainingPoints, resetMs: result.msBeforeNext };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return { allowed: false, limit, remaining: 0, resetMs: rejection.msBeforeNext };
      }
    },
  };
}
