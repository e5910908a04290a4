import { callUnary } from "@pulsegate/grpc";
import { HttpError } from "../../errors.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { createLookupCache } from "../../pipeline/lookup-cache.ts";
import { requirePresent } from "./require-present.ts";

/** Admin resources addressed by their own id (`/webhooks/:id`), whose team must be looked up. */
export type OwnedResource = "webhook" | "alert" | "monitor" | "channel" | "delivery" | "api_key";

/**
 * What the owning service answers for an unknown id, answered as well for a resource of another
 * team than the caller's API key: it does not exist, as far as that key can tell.
 */
export const notFound = (kind: OwnedResource | "team") => new HttpError(`${kind}_not_found`);

export type ResourceOwners = {
  teamOf: (kind: OwnedResource, id: string) => Promise<string>;
  /** A resource deleted here: its owner is no longer known. */
  forget: (kind: OwnedResource, id: string) => void;
  /** A deleted team's resources (through any replica). */
  forgetTeam: (teamId: string) => void;
  clear: () => void;
};

/**
 * The team a resource belongs to, asked of the service that owns it. A resource never changes
 * team, so a found owner is kept for long (an hour, bounded); an unknown id is not kept.
 */
export function createResourceOwners(peers: Peers): ResourceOwners {
  const { alerts, monitors, auth } = peers;
  const loaders: Record<OwnedResource, (id: string) => Promise<string>> = {
    webhook: async (id) => requirePresent((await callUnary(alerts, "getWebhook", { id })).webhook, "webhook").teamId,
    alert: async (id) => requirePresent((await callUnary(alerts, "getAlert", { id })).alert, "alert").teamId,
    monitor: async (id) => requirePresent((await callUnary(monitors, "getMonitor", { id })).monitor, "monitor").teamId,
    channel: async (id) =>
      requirePresent((await callUnary(alerts, "describeChannel", { id })).channel, "channel").teamId,
    delivery: async (id) =>
      requirePresent((await callUnary(alerts, "getDelivery", { id })).delivery, "delivery").teamId,
    api_key: async (id) => requirePresent((await callUnary(auth, "getApiKey", { id })).apiKey, "apiKey").teamId,
  };
  const cache = createLookupCache<string>({
    ttlMs: 3_600_000,
    maxEntries: 50_000,
    load: (key) => {
      const colon = key.indexOf(":");
      return loaders[key.slice(0, colon) as OwnedResource](key.slice(colon + 1));
    },
  });
  return {
    teamOf: (kind, id) => cache.get(`${kind}:${id}`),
    forget: (kind, id) => cache.invalidate(`${kind}:${id}`),
    forgetTeam: (teamId) => cache.invalidateWhere((owner) => owner === teamId),
    clear: cache.clear,
  };
}
