import type { Logger } from "@pulsegate/runtime/logger";
import type { Redis } from "ioredis";
import { type IRateLimiterOptions, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { batchPerTurn } from "../peers/batch-per-turn.ts";
import type { RateDecision } from "./rate-limit-headers.ts";

/**
 * Fixed windows, for every request of a batch in one round trip (one Redis command per batch, not
 * per request: a fold or a new alert used to cost a command of its own): per key, the counter is
 * created for the window when missing, and a request that would go over the limit is refused
 * WITHOUT being counted, so the counter never exceeds the limit. Two requests of one key in a batch
 * are taken in order. The keys and counters are those rate-limiter-flexible's RateLimiterRedis kept
 * (`<prefix>:<key>`, the count as a string, expiring with the window), so gateways of the previous
 * release share them during a roll. KEYS the keys; ARGV per key: limit, window seconds.
 * Returns per key {count including this request, ms left in the window}.
 */
const CONSUME_UNLESS_OVER_LIMIT = `
local out = {}
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[2 * i - 1])
  local window = ARGV[2 * i]
  redis.call('set', key, 0, 'EX', window, 'NX')
  local consumed = tonumber(redis.call('get', key)) + 1
  if consumed <= limit then
    redis.call('incr', key)
  end
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, window)
    ttl = 1000 * tonumber(window)
  end
  out[#out + 1] = consumed
  out[#out + 1] = ttl
end
return out
`;

type WithCommand = Redis & {
  pulsegateFixedWindows: (keyCount: number, ...keysAndArgs: (string | number)[]) => Promise<number[]>;
};

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

  // One in-process limiter per distinct limit value; limits are few (set per webhook by admins).
  const inProcess = new Map<number, InProcessFallback>();
  const inProcessFor = (limit: number) => {
    let limiter = inProcess.get(limit);
    if (!limiter) {
      limiter = new InProcessFallback(
        { points: limit, duration: windowSeconds, keyPrefix },
        redis ? onFallback : () => undefined,
      );
      inProcess.set(limit, limiter);
    }
    return limiter;
  };
  const consumeInProcess = async (key: string, limit: number): Promise<RateDecision> => {
    try {
      const result = await inProcessFor(limit).consume(key);
      return { allowed: true, limit, remaining: result.remainingPoints, resetMs: result.msBeforeNext };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { allowed: false, limit, remaining: 0, resetMs: rejection.msBeforeNext };
    }
  };
  if (!redis) return { consume: consumeInProcess };

  redis.defineCommand("pulsegateFixedWindows", { lua: CONSUME_UNLESS_OVER_LIMIT });
  const windows = batchPerTurn(
    async (asks: { key: string; limit: number }[]) => {
      const flat = await (redis as WithCommand).pulsegateFixedWindows(
        asks.length,
        ...asks.map((ask) => ask.key),
        ...asks.flatMap((ask) => [ask.limit, windowSeconds]),
      );
      return asks.map((_, index) => [Number(flat[2 * index]), Number(flat[2 * index + 1])] as const);
    },
    { name: "webhook rate limits", maxBatch: 500 },
  );

  return {
    consume: async (key, limit) => {
      // Not connected: no wait for a reconnection, the in-process counters answer at once.
      if (redis.status !== "ready") return consumeInProcess(key, limit);
      try {
        const [consumed, resetMs] = await windows({ key: `${keyPrefix}:${key}`, limit });
        return consumed <= limit
          ? { allowed: true, limit, remaining: limit - consumed, resetMs }
          : { allowed: false, limit, remaining: 0, resetMs };
      } catch {
        return consumeInProcess(key, limit);
      }
    },
  };
}
