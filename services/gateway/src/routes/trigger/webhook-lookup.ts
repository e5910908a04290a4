import type { alerts } from "@pulsegate/proto";
import type { Peers } from "../../peers/connect-peers.ts";
import { lookupWebhook } from "../../peers/look-ups.ts";
import { createLookupCache, type LookupCache } from "../../pipeline/lookup-cache.ts";
import { isUrlToken } from "../../pipeline/url-token.ts";

/**
 * Step 2 of triggers and resolves: the webhook look-up's answers (found or not) kept `ttlMs`
 * (WEBHOOK_CACHE_MS). A deletion through any replica drops its entry at once (team-changes.ts).
 */
export function createWebhookLookup(peers: Peers, ttlMs: number): LookupCache<alerts.Webhook | undefined> {
  return createLookupCache<alerts.Webhook | undefined>({
    ttlMs,
    load: async (webhookUrl) => (isUrlToken(webhookUrl) ? lookupWebhook(peers, webhookUrl) : undefined),
  });
}
