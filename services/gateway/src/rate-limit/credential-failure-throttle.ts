import type { Logger } from "@pulsegate/runtime/logger";
import type { Redis } from "ioredis";
import { type IRateLimiterOptions, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { clientSource } from "./client-source.ts";

/** The window failures are counted in; `limit` of them within it start a block. */
const WINDOW_SECONDS = 60;

/** In-process counts, used while Redis is unreachable (per gateway replica); says so once. */
class InProcessFallback extends RateLimiterMemory {
  readonly #onUse: () => void;

  constructor(options: IRateLimiterOptions, onUse: () => void) {
    super(options);
    this.#onUse = onUse;
  }

  override get(key: string | number, options?: { [key: string]: unknown }) {
    this.#onUse();
    return super.get(key, options);
  }

  override consume(key: string | number, points?: number, options?: { [key: string]: unknown }) {
    this.#onUse();
    return super.consume(key, points, options);
  }

  override block(key: string | number, secDuration: number) {
    this.#onUse();
    return super.block(key, secDuration);
  }
}

export type CredentialFailureThrottle = {
  /** How long this address is still blocked for its failed credentials, in ms; 0 when it is not. */
  blockedForMs: (address: string) => Promise<number>;
  /** Counts one failed credential (a 401) of this address; the `limit`-th within a minute starts its block. */
  recordFailure: (address: string) => Promise<void>;
};

/**
 * Failed credentials (dashboard sign-ins, admin API bearer tokens) counted per client address
 * (IPv6 per /64, client-source.ts) in Redis, so every gateway replica sees the same count; in
 * process when there is no Redis or it is unreachable. `limit` failures within a minute block the
 * address for `blockSeconds`, every request refused before its credential is checked; successes
 * are not counted. The block is short on purpose: a team's CI behind the same NAT address as a
 * guesser is kept out only that long after the guessing stops.
 */
export function createCredentialFailureThrottle(options: {
  /** None: in-process counts only (per gateway replica), as while Redis is unreachable. */
  redis?: Redis | undefined;
  log: Pick<Logger, "info" | "warn">;
  keyPrefix?: string;
  limit: number;
  blockSeconds: number;
}): CredentialFailureThrottle {
  const { redis, log, keyPrefix = "pulsegate", limit, blockSeconds } = options;
  let fallingBack = false;
  const onFallback = () => {
    if (fallingBack) return;
    fallingBack = true;
    log.warn("Redis is unreachable: failed sign-ins are counted in process (per gateway replica)");
  };
  redis?.on("ready", () => {
    if (!fallingBack) return;
    fallingBack = false;
    log.info("Redis is reachable again: failed sign-ins are counted across replicas");
  });
  const shape = { points: limit, duration: WINDOW_SECONDS, keyPrefix: `${keyPrefix}:credential-failures` };
  const inProcess = new InProcessFallback(shape, redis ? onFallback : () => undefined);
  const limiter = redis
    ? new RateLimiterRedis({ ...shape, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: inProcess })
    : inProcess;

  return {
    blockedForMs: async (address) => {
      const count = await limiter.get(clientSource(address));
      return count !== null && count.consumedPoints >= limit ? Math.max(1, count.msBeforeNext) : 0;
    },
    recordFailure: async (address) => {
      const source = clientSource(address);
      let consumed: number;
      try {
        consumed = (await limiter.consume(source)).consumedPoints;
      } catch (rejection) {
        // Over the limit already: failures that passed the check at the same time as others.
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        consumed = rejection.consumedPoints;
      }
      if (consumed >= limit) await limiter.block(source, blockSeconds);
    },
  };
}
