import type { Logger } from "@pulsegate/runtime/logger";
import type { Redis } from "ioredis";
import { createFallingBackSessionStore } from "./falling-back-session-store.ts";
import { createMemorySessionStore } from "./memory-session-store.ts";
import { createRedisSessionStore } from "./redis-session-store.ts";
import { SESSION_IDLE_MS, type SessionStore } from "./session-store.ts";

/**
 * How long a session command may wait for Redis. The shared client gives up after 500 ms, right for
 * rate limits on the hot path; a page can wait longer, and a slow answer on a busy machine taken
 * for an outage would leave a new session on one replica only.
 */
const SESSION_COMMAND_TIMEOUT_MS = 3_000;

export type ClosableSessionStore = SessionStore & { close: () => Promise<void> };

/**
 * Sessions in Redis when there is one (shared by every gateway replica, sealed: a dump of Redis
 * holds no usable credential), in process otherwise and while Redis is unreachable (docs/dashboard.md).
 */
export function createSessionStore(options: {
  /** The gateway's client; sessions use a connection of their own with its options. */
  redis?: Redis | undefined;
  log: Logger;
  /** Namespace of the keys in Redis (REDIS_KEY_PREFIX). */
  keyPrefix: string;
  /** A session ends after this long without a request (default 12 h). */
  idleMs?: number;
}): ClosableSessionStore {
  const { idleMs = SESSION_IDLE_MS, log } = options;
  const memory = createMemorySessionStore({ idleMs });
  if (!options.redis) return { ...memory, close: async () => undefined };
  const redis = options.redis.duplicate({ commandTimeout: SESSION_COMMAND_TIMEOUT_MS });
  // Outages are reported once by the store; each failed reconnect only at debug.
  redis.on("error", (error: Error) => log.debug({ err: error }, "redis connection error"));
  const shared = createRedisSessionStore({ redis, keyPrefix: options.keyPrefix, idleMs });
  return {
    ...createFallingBackSessionStore({ shared, local: memory, redis, log }),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
