import type { Logger } from "@pulsegate/logger";
import type { Redis } from "ioredis";
import { createFallingBackSessionStore } from "./falling-back-session-store.ts";
import { createMemorySessionStore } from "./memory-session-store.ts";
import { createRedisSessionStore } from "./redis-session-store.ts";
import { SESSION_IDLE_MS, type SessionStore } from "./session-store.ts";

/**
 * Sessions in Redis when there is one (shared by every gateway replica, sealed: a dump of Redis
 * holds no usable credential), in process otherwise and while Redis is unreachable (docs/dashboard.md).
 */
export function createSessionStore(options: {
  redis?: Redis | undefined;
  log: Logger;
  /** Namespace of the keys in Redis (REDIS_KEY_PREFIX). */
  keyPrefix: string;
  /** A session ends after this long without a request (default 12 h). */
  idleMs?: number;
}): SessionStore {
  const { idleMs = SESSION_IDLE_MS } = options;
  const memory = createMemorySessionStore({ idleMs });
  if (!options.redis) return memory;
  const shared = createRedisSessionStore({ redis: options.redis, keyPrefix: options.keyPrefix, idleMs });
  return createFallingBackSessionStore({ shared, local: memory, redis: options.redis, log: options.log });
}
