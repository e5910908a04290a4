import { BATCH_LIMITS } from "@pulsegate/contract/limits";
import { monitors } from "@pulsegate/proto";
import { batchPerTurn } from "../../peers/batch-per-turn.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { lookupMonitors } from "../../peers/look-ups.ts";
import { createLookupCache } from "../../pipeline/lookup-cache.ts";
import { isUrlToken } from "../../pipeline/url-token.ts";

/** What the ping route needs of a monitor; kept small, since every active monitor is cached. */
export type CachedMonitor = Pick<
  monitors.Monitor,
  "id" | "teamId" | "name" | "status" | "requireTimestamp" | "signatureScheme"
>;

export type MonitorLookup = {
  /** Step 2: the monitor behind a ping URL, or undefined when there is none. */
  get: (pingUrl: string) => Promise<CachedMonitor | undefined>;
  /** Forgets the cached answer (the monitor was paused, resumed or removed meanwhile). */
  invalidate: (pingUrl: string) => void;
  /** Forgets every monitor `matches` (a deleted team's). */
  invalidateWhere: (matches: (monitor: CachedMonitor | undefined) => boolean) => void;
  clear: () => void;
};

export type MonitorLookupOptions = {
  /** How long a monitor found is reused (minutes: a monitor's team and id never change). */
  ttlMs: number;
  /** How long "no such monitor" is reused (seconds: a new monitor must be seen soon). */
  negativeTtlMs: number;
  /** Room for every active monitor (a cached one costs about 200 bytes). */
  maxEntries: number;
};

/**
 * Monitor look-ups by ping URL, cached: the misses of one moment go in one call,
 * found monitors stay for minutes, unknown ping URLs for seconds. Staleness is
 * safe: RecordPing checks the monitor again (a pause made through another
 * gateway replica is answered 404 there, and forgotten here), and a cached
 * "paused" is checked again before it turns a ping away, so a resume takes
 * effect at once. While monitors cannot be asked, the last answer is used: a
 * ping that arrives while the database is away must still be authenticated
 * and spooled (DESIGN §5).
 */
export function createMonitorLookup(peers: Peers, options: MonitorLookupOptions): MonitorLookup {
  const lookupMany = batchPerTurn((pingUrls: string[]) => lookupMonitors(peers, pingUrls), {
    name: "LookupMonitors",
    maxBatch: BATCH_LIMITS.maxItemsPerCall,
  });
  const cache = createLookupCache<CachedMonitor | undefined>({
    ttlMs: options.ttlMs,
    negativeTtlMs: options.negativeTtlMs,
    maxEntries: options.maxEntries,
    staleOnError: true,
    load: async (pingUrl) => {
      if (!isUrlToken(pingUrl)) return undefined;
      const found = (await lookupMany(pingUrl)).monitor;
      return found
        ? {
            id: found.id,
            teamId: found.teamId,
            name: found.name,
            status: found.status,
            requireTimestamp: found.requireTimestamp,
            signatureScheme: found.signatureScheme,
          }
        : undefined;
    },
  });
  return {
    get: async (pingUrl) => {
      const monitor = await cache.get(pingUrl);
      if (monitor?.status !== monitors.MonitorStatus.MONITOR_STATUS_PAUSED) return monitor;
      cache.invalidate(pingUrl);
      return cache.get(pingUrl);
    },
    invalidate: (pingUrl) => cache.invalidate(pingUrl),
    invalidateWhere: (matches) => cache.invalidateWhere(matches),
    clear: () => cache.clear(),
  };
}
