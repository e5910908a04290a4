import { WEBHOOK_LIMITS } from "@pulsegate/contract/limits";
import { alerts, type auth } from "@pulsegate/proto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { errors } from "../../errors.ts";
import type { CoalescedCalls } from "../../peers/coalesced-calls.ts";
import type { LookupCache } from "../../pipeline/lookup-cache.ts";
import { rawBodyOf } from "../../pipeline/raw-body.ts";
import { requireSignatureHeader } from "../../pipeline/require-signature.ts";
import { requireActiveSubscription, requireValidSignature } from "../../pipeline/require-valid-signature.ts";
import { readSignedRequest } from "../../pipeline/signed-request.ts";
import { rateLimitHeaders } from "../../rate-limit/rate-limit-headers.ts";
import type { RateLimiter } from "../../rate-limit/webhook-rate-limiter.ts";

export type WebhookRequestDeps = {
  calls: CoalescedCalls;
  rateLimiter: RateLimiter;
  webhooks: LookupCache<alerts.Webhook | undefined>;
};

export type CheckedWebhookRequest = {
  webhook: alerts.Webhook;
  access: auth.TeamAccess;
  payload: Buffer;
  /** The signature as sent, and its signed timestamp (null unless the webhook requires one): see takeOnce. */
  signature: string;
  timestamp: number | null;
  /** Standard Webhooks: the webhook-id, the request's idempotency key (readIdempotencyKey); else null. */
  webhookId: string | null;
};

/**
 * DESIGN §2 steps 1–5 for a request to a webhook URL, in that order: a signature is present, the webhook is
 * known and enabled, the signature verifies, the team's subscription is active, and the webhook's rate limit
 * admits it (its headers set on the reply). One place for triggers and resolves, which share the order and
 * the webhook's rate limit; each route then reads its own body (step 6).
 */
export async function checkWebhookRequest(
  request: FastifyRequest<{ Params: { webhookUrl: string } }>,
  reply: FastifyReply,
  deps: WebhookRequestDeps,
): Promise<CheckedWebhookRequest> {
  requireSignatureHeader(request);

  const webhook = await deps.webhooks.get(request.params.webhookUrl);
  // An Alertmanager webhook is not known here: its URL works on its own route only.
  if (!webhook?.enabled || !isSigned(webhook)) throw errors.webhookNotFound();

  const payload = rawBodyOf(request);
  const signed = readSignedRequest(request, payload, webhook);
  const access = await requireValidSignature(
    deps.calls,
    { teamId: webhook.teamId, ...signed.verify },
    errors.webhookNotFound,
  );

  requireActiveSubscription(access);
  await consumeWebhookRateLimit(deps.rateLimiter, webhook, reply);

  return {
    webhook,
    access,
    payload,
    signature: signed.signature,
    timestamp: signed.timestamp,
    webhookId: signed.webhookId,
  };
}

/** Signed webhooks, and those of an alerts service that predates sources (UNSPECIFIED). */
function isSigned(webhook: alerts.Webhook): boolean {
  return webhook.source !== alerts.WebhookSource.WEBHOOK_SOURCE_ALERTMANAGER;
}

/** Step 5, for every route of a webhook: its rate limit admits the request (headers set on the reply), or 429. */
export async function consumeWebhookRateLimit(
  rateLimiter: RateLimiter,
  webhook: alerts.Webhook,
  reply: FastifyReply,
): Promise<void> {
  // A webhook without a positive limit of its own gets the default alerts gives new webhooks.
  const limit = webhook.rateLimitPerMinute > 0 ? webhook.rateLimitPerMinute : WEBHOOK_LIMITS.defaultRateLimitPerMinute;
  const decision = await rateLimiter.consume(`webhook:${webhook.id}`, limit);
  const limitHeaders = rateLimitHeaders(decision);
  reply.headers(limitHeaders);
  if (!decision.allowed) throw errors.rateLimited(limitHeaders);
}
