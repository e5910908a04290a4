import { callUnary } from "@pulsegate/grpc";
import { NOT_FOUND_SENTENCES } from "@pulsegate/not-found";
import { HttpError } from "../../errors.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { createLookupCache } from "../../pipeline/lookup-cache.ts";
import { present } from "./present.ts";

/** Admin resources addressed by their own id (`/webhooks/:id`), whose team must be looked up. */
export type OwnedResource = "webhook" | "alert" | "monitor" | "channel" | "delivery" | "api_key";

/**
 * What the owning service answers for an unknown id, answered as well for a resource of another
 * team than the caller's API key: it does not exist, as far as that key can tell.
 */
export const NOT_FOUND: Record<OwnedResource | "team", { code: string; message: string }> = {
  team: { code: "team_not_found", message: "No team has that id." },
  webhook: { code: "webhook_not_found", message: NOT_FOUND_SENTENCES.webhook_not_found },
  alert: { code: "alert_not_found", message: "No alert has that id." },
  monitor: { code: "monitor_not_found", message: NOT_FOUND_SENTENCES.monitor_not_found },
  channel: { code: "channel_not_found", message: "No channel has that id." },
  delivery: { code: "delivery_not_found", message: "No delivery has that id." },
  api_key: { code: "api_key_not_found", message: "No API key has that id." },
};

export const notFound = (kind: OwnedResource | "team") =>
  new HttpError(404, NOT_FOUND[kind].code, NOT_FOUND[kind].message);

export type ResourceOwners = { teamOf: (kind: OwnedResource, id: string) => Promise<string> };

/**
 * The team a resource belongs to, asked of the service that owns it. A resource never changes
 * team, so a found owner is kept for long (an hour, bounded); an unknown id is not kept.
 */
export function createResourceOwners(peers: Peers): ResourceOwners {
  const { alerts, monitors, auth, timeoutMs } = peers;
  const loaders: Record<OwnedResource, (id: string) => Promise<string>> = {
    webhook: async (id) =>
      present((await callUnary(alerts, alerts.getWebhook, { id }, timeoutMs)).webhook, "webhook").teamId,
    alert: async (id) => present((await callUnary(alerts, alerts.getAlert, { id }, timeoutMs)).alert, "alert").teamId,
    monitor: async (id) =>
      present((await callUnary(monitors, monitors.getMonitor, { id }, timeoutMs)).monitor, "monitor").teamId,
    channel: async (id) =>
      present((await callUnary(alerts, alerts.describeChannel, { id }, timeoutMs)).channel, "channel").teamId,
    delivery: async (id) =>
      present((await callUnary(alerts, alerts.getDelivery, { id }, timeoutMs)).delivery, "delivery").teamId,
    api_key: async (id) => present((await callUnary(auth, auth.getApiKey, { id }, timeoutMs)).apiKey, "apiKey").teamId,
  };
  const cache = createLookupCache<string>({
    ttlMs: 3_600_000,
    maxEntries: 50_000,
    load: (key) => {
      const colon = key.indexOf(":");
      return loaders[key.slice(0, colon) as OwnedResource](key.slice(colon + 1));
    },
  });
  return { teamOf: (kind, id) => cache.get(`${kind}:${id}`) };
}
