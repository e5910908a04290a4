import type { Logger } from "@pulsegate/runtime/logger";
import type { Redis } from "ioredis";
import { type LookupNotice, parseLookupNotice } from "./lookup-notices.ts";

export type TeamChanges = {
  /**
   * A team changed through this gateway (secret, subscription, quotas): its cached verdicts go here
   * at once, and every other replica is told to drop them, before the change is answered.
   */
  announce: (teamId: string) => Promise<void>;
  /**
   * A webhook or monitor was deleted or changed, or a team deleted, through this gateway: its
   * look-ups go here at once, and every other replica is told to drop them, before it is answered.
   */
  announceLookups: (notice: LookupNotice) => Promise<void>;
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
  /** Drops what a notice names from the look-up caches (webhooks, monitors, badges, owners, keys). */
  forgetLookups?: ((notice: LookupNotice) => void) | undefined;
  /** Lookup notices may have been missed: every look-up cache is emptied. */
  forgetAllLookups?: (() => void) | undefined;
  /** How often the subscription is checked with a PING, so a dead connection is noticed (default 15 s). */
  checkEveryMs?: number;
};

/**
 * Changes across gateway replicas, over Redis pub/sub, on two channels: `team-changed` (a team id:
 * every replica forgets that team's verified signatures) and `lookups-changed` (a LookupNotice:
 * every replica forgets the look-ups it names). The replica that made a change publishes; every
 * replica, itself included, forgets. Pub/sub keeps nothing for a replica that is not subscribed,
 * so each time the subscription is (again) in place every verdict and look-up is dropped; while
 * Redis is away the caches' lives are the bound. Nothing here is on a request's path but the
 * admin change itself (one PUBLISH).
 */
export function createTeamChanges(options: TeamChangesOptions): TeamChanges {
  const { redis, log, forgetTeam, forgetAll } = options;
  const forgetLookups = options.forgetLookups ?? (() => undefined);
  const forgetAllLookups = options.forgetAllLookups ?? (() => undefined);
  if (!redis) {
    return {
      announce: async (teamId) => forgetTeam(teamId),
      announceLookups: async (notice) => forgetLookups(notice),
      close: async () => undefined,
    };
  }
  const teamChannel = `${options.keyPrefix}:team-changed`;
  const lookupChannel = `${options.keyPrefix}:lookups-changed`;
  // Subscribed again by hand on every connection, so the caches are cleared once the subscription holds.
  const subscriber = redis.duplicate({ autoResubscribe: false });
  subscriber.on("error", (error: Error) => log.debug({ err: error }, "redis subscription connection error"));
  subscriber.on("message", (from: string, message: string) => {
    if (from === teamChannel) forgetTeam(message);
    if (from === lookupChannel) {
      const notice = parseLookupNotice(message);
      if (notice) forgetLookups(notice);
    }
  });
  subscriber.on("ready", () => {
    subscriber.subscribe(teamChannel, lookupChannel).then(
      () => {
        forgetAll();
        forgetAllLookups();
      },
      (error: unknown) => {
        log.warn({ err: error }, "could not subscribe to team changes; connecting again");
        subscriber.disconnect(true);
      },
    );
  });
  const check = setInterval(() => {
    if (subscriber.status === "ready") subscriber.ping().catch(() => subscriber.disconnect(true));
  }, options.checkEveryMs ?? 15_000);
  check.unref();

  const publish = async (channel: string, message: string, what: Record<string, unknown>) => {
    try {
      await redis.publish(channel, message);
    } catch (error) {
      log.warn(
        { err: error, ...what },
        "could not announce a change to the other gateway replicas; their caches expire by themselves",
      );
    }
  };
  return {
    announce: async (teamId) => {
      forgetTeam(teamId);
      await publish(teamChannel, teamId, { teamId });
    },
    announceLookups: async (notice) => {
      forgetLookups(notice);
      await publish(lookupChannel, JSON.stringify(notice), { kind: notice.kind });
    },
    close: async () => {
      clearInterval(check);
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
