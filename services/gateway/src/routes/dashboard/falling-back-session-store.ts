import type { Logger } from "@pulsegate/runtime/logger";
import type { Redis } from "ioredis";
import type { SessionStore } from "./session-store.ts";

/**
 * Sessions in Redis, and in this process while Redis is unreachable: the dashboard keeps working
 * in an outage (when it is needed most), sessions made meanwhile live on this replica until they
 * end, and sessions already in Redis come back with it. Sign-out and revocation reach both.
 */
export function createFallingBackSessionStore(options: {
  shared: SessionStore;
  local: SessionStore;
  redis: Redis;
  log: Pick<Logger, "info" | "warn">;
}): SessionStore {
  const { shared, local, redis, log } = options;
  let fallingBack = false;
  const fallBack = (error: unknown) => {
    if (fallingBack) return;
    fallingBack = true;
    // The message only: a failed command's error carries its arguments (sealed sessions).
    const cause = error instanceof Error ? error.message : String(error);
    log.warn({ cause }, "Redis is unreachable: new dashboard sessions are kept in process (this replica only)");
  };
  redis.on("ready", () => {
    if (!fallingBack) return;
    fallingBack = false;
    log.info("Redis is reachable again: dashboard sessions are shared across replicas");
  });
  /** Runs `work` on Redis; on failure, notes the outage and answers `otherwise`. */
  const onRedis = async <T>(work: () => Promise<T>, otherwise: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      fallBack(error);
      return otherwise();
    }
  };

  return {
    create: (token, actor, grant) =>
      onRedis(
        () => shared.create(token, actor, grant),
        () => local.create(token, actor, grant),
      ),
    get: async (id) =>
      (await onRedis(
        () => shared.get(id),
        async () => undefined,
      )) ?? local.get(id),
    save: async (session) => {
      await onRedis(
        () => shared.save(session),
        async () => undefined,
      );
      await local.save(session);
    },
    destroy: async (id) => {
      await onRedis(
        () => shared.destroy(id),
        async () => undefined,
      );
      await local.destroy(id);
    },
    destroyPrincipal: async (principal) => {
      await onRedis(
        () => shared.destroyPrincipal(principal),
        async () => undefined,
      );
      await local.destroyPrincipal(principal);
    },
  };
}
