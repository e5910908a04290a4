import { randomUUID } from "node:crypto";
import { PING_LIMITS } from "@pulsegate/contract/limits";
import type { Logger } from "@pulsegate/runtime/logger";
import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { batchPerTurn } from "../peers/batch-per-turn.ts";
import { CLAIM_LUA, createLocalReplayLog, type ReplayClaim } from "../pipeline/replay-guard.ts";
import type { RateDecision } from "./rate-limit-headers.ts";

/**
 * Sliding-window logs in one atomic step, for every ping of a batch at once
 * (one Redis command per batch, not per ping): a sorted set per ping URL holds
 * the times of accepted pings; entries older than the window are dropped. A
 * ping is allowed when fewer than `limit` remain, and logged only when the
 * caller says it is acceptable (its body passed step 6): refused, rejected
 * and invalid pings never count. A timestamped ping to be logged is also
 * claimed once (replay-guard.ts) in the same step: a replay is refused and
 * not logged. Two pings of one URL in a batch are taken in order. Redis's own
 * clock keeps gateway replicas in agreement.
 * KEYS the ping URLs' keys; ARGV window ms, limit, then per key: member, log 0|1,
 * replay claim key ('' none), its ttl ms, its idempotency key.
 * Returns per key {allowed 0|1, remaining, ms until the oldest logged ping leaves the window, replayed 0|1}.
 */
const SLIDING_WINDOW_LOGS = `${CLAIM_LUA}
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local out = {}
for i, key in ipairs(KEYS) do
  local at = 5 * i - 2
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  local allowed = 0
  local replayed = 0
  if count < limit then
    allowed = 1
    if ARGV[at + 1] == '1' then
      if ARGV[at + 2] ~= '' and claim(ARGV[at + 2], ARGV[at + 3], ARGV[at + 4]) == 0 then
        allowed = 0
        replayed = 1
      else
        redis.call('ZADD', key, now, ARGV[at])
        redis.call('PEXPIRE', key, window)
        count = count + 1
      end
    end
  end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  local reset = window
  if oldest[2] then reset = tonumber(oldest[2]) + window - now end
  out[#out + 1] = allowed
  out[#out + 1] = limit - count
  out[#out + 1] = reset
  out[#out + 1] = replayed
end
return out
`;

type WithCommand = Redis & {
  pulsegatePingWindows: (keyCount: number, ...keysAndArgs: (string | number)[]) => Promise<number[]>;
};

type Ask = { key: string; member: string; acceptable: boolean; claim: ReplayClaim | undefined };

const MAX_LOCAL_KEYS = 100_000;

/**
 * A decision, and for a logged ping the way to take it back out of the log. `replayed`: refused
 * because its timestamped signature was taken before (not a rate limit).
 */
export type PingRateDecision = RateDecision & { logged: boolean; replayed: boolean; release: () => Promise<void> };

/** The same log in process memory, used while Redis is unreachable (per gateway replica). */
export function createLocalWindowLog(windowMs: number, limit: number, now: () => number = Date.now) {
  // Past MAX_LOCAL_KEYS the least recently used URL's log goes.
  const logs = new LRUCache<string, { at: number; member: string }[]>({ max: MAX_LOCAL_KEYS });
  return {
    consume: (key: string, member: string, log: boolean): RateDecision & { logged: boolean } => {
      const time = now();
      const kept = (logs.get(key) ?? []).filter((entry) => entry.at > time - windowMs);
      const allowed = kept.length < limit;
      const logged = allowed && log;
      if (logged) kept.push({ at: time, member });
      logs.set(key, kept);
      const resetMs = (kept[0]?.at ?? time) + windowMs - time;
      return { allowed, logged, limit, remaining: limit - kept.length, resetMs };
    },
    release: (key: string, member: string) => {
      const kept = logs.get(key);
      if (kept)
        logs.set(
          key,
          kept.filter((entry) => entry.member !== member),
        );
    },
  };
}

export type PingRateLimiter = {
  /**
   * Step 5 for one ping URL: allowed while fewer than 10 pings were accepted
   * in the last 60 s. `acceptable` says whether this ping passed step 6: only
   * then is it logged (one atomic step, so concurrent pings never overshoot),
   * and only then is its replay claim, if any, taken.
   */
  consume: (pingUrl: string, acceptable: boolean, claim?: ReplayClaim) => Promise<PingRateDecision>;
};

/** More than 10 accepted pings in any rolling 60 s for one ping URL → refused (DESIGN §2 step 5). */
export function createPingRateLimiter(options: {
  /** None: the in-process log only (per gateway replica), as while Redis is unreachable. */
  redis?: Redis | undefined;
  log: Pick<Logger, "info" | "warn">;
  limit?: number;
  windowMs?: number;
  keyPrefix?: string;
}): PingRateLimiter {
  const {
    redis,
    log,
    limit = PING_LIMITS.perUrlPerWindow,
    windowMs = PING_LIMITS.windowSeconds * 1000,
    keyPrefix = "pulsegate:ping-rl:",
  } = options;
  const local = createLocalWindowLog(windowMs, limit);
  const localClaims = createLocalReplayLog();
  const inProcess = (pingUrl: string, member: string, acceptable: boolean, claim?: ReplayClaim): PingRateDecision => {
    const decision = local.consume(pingUrl, member, false);
    const replayed = decision.allowed && acceptable && claim !== undefined && !localClaims(claim);
    const logged = decision.allowed && acceptable && !replayed ? local.consume(pingUrl, member, true) : decision;
    return {
      ...logged,
      allowed: logged.allowed && !replayed,
      replayed,
      release: async () => local.release(pingUrl, member),
    };
  };
  if (!redis) {
    return { consume: async (pingUrl, acceptable, claim) => inProcess(pingUrl, randomUUID(), acceptable, claim) };
  }
  redis.defineCommand("pulsegatePingWindows", { lua: SLIDING_WINDOW_LOGS });
  let fallingBack = false;
  redis.on("ready", () => {
    if (!fallingBack) return;
    fallingBack = false;
    log.info("Redis is reachable again: ping limits are shared across replicas");
  });
  const windows = batchPerTurn(
    async (asks: Ask[]) => {
      const args: (string | number)[] = [windowMs, limit];
      for (const { member, acceptable, claim } of asks) {
        args.push(
          member,
          acceptable ? "1" : "0",
          claim?.key ?? "",
          Math.ceil(claim?.ttlMs ?? 0),
          claim?.idempotencyKey ?? "",
        );
      }
      const flat = await (redis as WithCommand).pulsegatePingWindows(
        asks.length,
        ...asks.map((ask) => ask.key),
        ...args,
      );
      return asks.map((_, index) => flat.slice(index * 4, index * 4 + 4) as [number, number, number, number]);
    },
    { name: "ping rate limits", maxBatch: 500 },
  );

  return {
    consume: async (pingUrl, acceptable, claim) => {
      const key = `${keyPrefix}${pingUrl}`;
      const member = randomUUID();
      try {
        const [allowed, remaining, resetMs, replayed] = await windows({ key, member, acceptable, claim });
        const logged = allowed === 1 && acceptable;
        return {
          allowed: allowed === 1,
          logged,
          replayed: replayed === 1,
          limit,
          remaining,
          resetMs,
          // Best effort: a ping whose release is lost counts until it leaves the window.
          release: async () => {
            if (logged) await redis.zrem(key, member).catch(() => undefined);
          },
        };
      } catch (error) {
        if (!fallingBack) {
          fallingBack = true;
          log.warn(
            { err: error },
            "Redis is unreachable: ping limits fall back to in-process logs (per gateway replica)",
          );
        }
        return inProcess(pingUrl, member, acceptable, claim);
      }
    },
  };
}
