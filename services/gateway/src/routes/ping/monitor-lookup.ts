import { callUnary } from "@pulsegate/grpc";
import { monitors } from "@pulsegate/proto";
import type { Peers } from "../../peers/connect-peers.ts";
import { createLookupCache } from "../../pipeline/lookup-cache.ts";
import { isUrlToken } from "../../pipeline/url-token.ts";

const MAX_LAST_KNOWN = 10_000;

export type MonitorLookup = {
  /** Step 2: the monitor behind a ping URL, or undefined when there is none. */
  get: (pingUrl: string) => Promise<monitors.Monitor | undefined>;
  /** Forgets the cached answer (the monitor was paused, resumed or removed meanwhile). */
  invalidate: (pingUrl: string) => void;
};

/**
 * ResolveMonitor answers, cached for `ttlMs`. The last monitor found for
 * each ping URL is also kept, and used when the lookup fails: a ping that
 * arrives while the database is away must still be authenticated and
 * spooled (DESIGN §5). A cached "paused" is checked again before it turns a
 * ping away, so a resume takes effect at once.
 */
export function createMonitorLookup(peers: Peers, ttlMs: number): MonitorLookup {
  const lastKnown = new Map<string, monitors.Monitor>();
  const remember = (pingUrl: string, monitor: monitors.Monitor | undefined) => {
    lastKnown.delete(pingUrl);
    if (!monitor) return;
    if (lastKnown.size >= MAX_LAST_KNOWN) {
      const oldest = lastKnown.keys().next();
      if (!oldest.done) lastKnown.delete(oldest.value);
    }
    lastKnown.set(pingUrl, monitor);
  };
  const cache = createLookupCache<monitors.Monitor | undefined>({
    ttlMs,
    load: async (pingUrl) => {
      if (!isUrlToken(pingUrl)) return undefined;
      const { monitor } = await callUnary(peers.monitors, peers.monitors.resolveMonitor, { pingUrl }, peers.timeoutMs);
      remember(pingUrl, monitor);
      return monitor;
    },
  });
  const load = async (pingUrl: string) => {
    try {
      return await cache.get(pingUrl);
    } catch (error) {
      const known = lastKnown.get(pingUrl);
      if (known) return known;
      throw error;
    }
  };
  return {
    get: async (pingUrl) => {
      const monitor = await load(pingUrl);
      if (monitor?.status !== monitors.MonitorStatus.MONITOR_STATUS_PAUSED) return monitor;
      cache.invalidate(pingUrl);
      return load(pingUrl);
    },
    invalidate: (pingUrl) => cache.invalidate(pingUrl),
  };
}
