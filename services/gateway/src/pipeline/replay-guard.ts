import { REQUEST_LIMITS } from "@pulsegate/contract/limits";
import type { Logger } from "@pulsegate/runtime/logger";
import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { HttpError } from "../errors.ts";
import { batchPerTurn } from "../peers/batch-per-turn.ts";

/**
 * A timestamped request remembered until its timestamp leaves the tolerance window: within that
 * window the same signed bytes are taken once. Only requests to a source that requires timestamps
 * can be told apart from a legitimate repeat (the interface's scheme signs the body alone, and two
 * empty-body pings are rightly identical), so only those are remembered.
 */
export type ReplayClaim = {
  /** The source and the signature as hex digits (one spelling: `SHA256=AB…` is `ab…`). */
  key: string;
  /** How long the claim is kept: until the signed timestamp is out of tolerance. */
  ttlMs: number;
  /**
   * The request's Idempotency-Key ("" for none). A repeat that carries the key its first copy
   * carried is a client retrying an answer it did not get: it passes, and the service answers it
   * from what the first one did. Any other repeat is refused.
   */
  idempotencyKey: string;
};

const KEY_PREFIX = "pulsegate:replay:";
/** A gateway's clock and Redis's may differ a little; a claim outlives the window by this much. */
const CLOCK_MARGIN_MS = 5_000;

export function replayClaimOf(
  sourceId: string,
  signature: string,
  timestampSeconds: number,
  idempotencyKey: string,
  now: number = Date.now(),
): ReplayClaim {
  const hex = signature
    .trim()
    .replace(/^sha256=/i, "")
    .toLowerCase();
  const ttlMs = (timestampSeconds + REQUEST_LIMITS.timestampToleranceSeconds) * 1000 - now + CLOCK_MARGIN_MS;
  return { key: `${KEY_PREFIX}${sourceId}:${hex}`, ttlMs: Math.max(ttlMs, 1_000), idempotencyKey };
}

export const replayedRequest = () =>
  new HttpError(
    "replayed_request",
    "This signed request was already accepted within its timestamp's tolerance: a timestamped request is applied once. Sign each new request with a fresh X-Webhook-Timestamp; to retry one whose answer was lost, send it with the same Idempotency-Key.",
  );

/**
 * The claim in Lua, for a script that declares `claim(key, ttl, idempotencyKey)` → 1 taken, 0 a
 * replay. Shared by the ping window's script (one round trip for both) and the guard below.
 */
export const CLAIM_LUA = `
local function claim(key, ttl, idempotency)
  if redis.call('SET', key, idempotency, 'PX', ttl, 'NX') then return 1 end
  if idempotency ~= '' and redis.call('GET', key) == idempotency then return 1 end
  return 0
end
`;

/** ARGV pairs (ttl ms, idempotency key) for KEYS; returns 1 (taken) or 0 (a replay) per key. */
const CLAIM_EACH = `${CLAIM_LUA}
local out = {}
for i, key in ipairs(KEYS) do
  out[i] = claim(key, ARGV[2 * i - 1], ARGV[2 * i])
end
return out
`;

const MAX_LOCAL_CLAIMS = 100_000;

/**
 * The same claims in process memory, while Redis is unreachable (per gateway replica, bounded: past
 * MAX_LOCAL_CLAIMS the least recently claimed go first, as Redis would evict under its memory limit).
 */
export function createLocalReplayLog(now?: () => number) {
  const claims = new LRUCache<string, { idempotencyKey: string }>({
    max: MAX_LOCAL_CLAIMS,
    // Every claim names its own TTL; this default only satisfies the type.
    ttl: 1,
    // A clock of its own (a test's) is read at every check, not once a millisecond.
    ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
  });
  return (claim: ReplayClaim): boolean => {
    const held = claims.get(claim.key);
    if (held) return claim.idempotencyKey !== "" && held.idempotencyKey === claim.idempotencyKey;
    claims.set(claim.key, { idempotencyKey: claim.idempotencyKey }, { ttl: Math.max(1, claim.ttlMs) });
    return true;
  };
}

export type ReplayGuard = {
  /** True: the request is taken (first time, or the retry of an idempotent one); false: a replay. */
  claim: (claim: ReplayClaim) => Promise<boolean>;
};

/**
 * Claims in Redis, so every gateway replica agrees: the claims of one event-loop turn in one
 * script call. While Redis is unreachable each replica keeps its own (as the rate limits do).
 */
export function createReplayGuard(options: { redis?: Redis | undefined; log: Pick<Logger, "warn"> }): ReplayGuard {
  const { redis, log } = options;
  const local = createLocalReplayLog();
  if (!redis) return { claim: async (claim) => local(claim) };
  redis.defineCommand("pulsegateReplayClaims", { lua: CLAIM_EACH });
  const claimAll = batchPerTurn(
    async (claims: ReplayClaim[]) => {
      const args: (string | number)[] = claims.map((claim) => claim.key);
      for (const claim of claims) args.push(Math.ceil(claim.ttlMs), claim.idempotencyKey);
      const taken = await (
        redis as Redis & { pulsegateReplayClaims: (keys: number, ...args: (string | number)[]) => Promise<number[]> }
      ).pulsegateReplayClaims(claims.length, ...args);
      return taken.map((value) => value === 1);
    },
    { name: "replay claims", maxBatch: 500 },
  );
  let fallingBack = false;
  return {
    claim: async (claim) => {
      try {
        const taken = await claimAll(claim);
        fallingBack = false;
        return taken;
      } catch (error) {
        if (!fallingBack) {
          fallingBack = true;
          log.warn({ err: error }, "Redis is unreachable: replays are remembered in process (per gateway replica)");
        }
        return local(claim);
      }
    },
  };
}

/**
 * Called just before a request is applied (never for a dry run, nor for a request refused
 * before): a timestamped one (`timestamp` not null) goes through once, a replay is a 409.
 */
export async function takeOnce(
  guard: ReplayGuard,
  request: { sourceId: string; signature: string; timestamp: number | null; idempotencyKey: string },
): Promise<void> {
  if (request.timestamp === null) return;
  const claim = replayClaimOf(request.sourceId, request.signature, request.timestamp, request.idempotencyKey);
  if (!(await guard.claim(claim))) throw replayedRequest();
}
