import type { Logger } from "@pulsegate/logger";
import type { Redis } from "ioredis";

export type TeamChanges = {
  /**
   * A team changed through this gateway (secret, subscription, quotas): its cached verdicts go here
   * at once, and every other replica is told to drop them, before the change is answered.
   */
  announce: (teamId: string) => Promise<void>;
  close: () => Promise<void>;
};

export type TeamChangesOptions = {
  /** The gateway's client; the subscription uses a connection of its own with its options. None: this replica alone. */
  redis?: Redis | undefined;
  /** Namespace of the channel in Redis (REDIS_KEY_PREFIX): replicas of one deployment hear each other only. */
  keyPrefix: string;
  log: Pick<Logger, "warn" | "debug">;
  forgetTeam: (teamId: string) => void;
  /** Announcements may have been missed (the subscription was down): everything goes. */
  forgetAll: () => void;
  /** How often the subscription is checked with a PING, so a dead connection is noticed (default 15 s). */
  checkEveryMs?: number;
};

/**
 * Team changes across gateway replicas, over Redis pub/sub: the one that made a change publishes the
 * team id, every replica (itself included) forgets that team's verified signatures. Pub/sub keeps
 * nothing for a replica that is not subscribed, so each time the subscription is (again) in place
 * every verdict is dropped; while Redis is away the verdicts' TTL (VERIFIED_CACHE_MS) is the bound.
 * Nothing here is on a request's path but the admin change itself (one PUBLISH).
 */
export function createTeamChanges(options: TeamChangesOptions): TeamChanges {
  const { redis, log, forgetTeam, forgetAll } = options;
  if (!redis) {
    return { announce: async (teamId) => forgetTeam(teamId), close: async () => undefined };
  }
  const channel = `${options.keyPrefix}:team-changed`;
  // Subscribed again by hand on every connection, so the cache is cleared once the subscription holds.
  const subscriber = redis.duplicate({ autoResubscribe: false });
  subscriber.on("error", (error: Error) => log.debug({ err: error }, "redis subscription connection error"));
  subscriber.on("message", (from: string, teamId: string) => {
    if (from === channel) forgetTeam(teamId);
  });
  subscriber.on("ready", () => {
    subscriber.subscribe(channel).then(forgetAll, (error: unknown) => {
      log.warn({ err: error }, "could not subscribe to team changes; connecting again");
      subscriber.disconnect(true);
    });
  });
  const check = setInterval(() => {
    if (subscriber.status === "ready") subscriber.ping().catch(() => subscriber.disconnect(true));
  }, options.checkEveryMs ?? 15_000);
  check.unref();

  return {
    announce: async (teamId) => {
      forgetTeam(teamId);
      try {
        await redis.publish(channel, teamId);
      } catch (error) {
        log.warn(
          { err: error, teamId },
          "could not announce a team change to the other gateway replicas; their verdicts expire by themselves",
        );
      }
    },
    close: async () => {
      clearInterval(check);
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
