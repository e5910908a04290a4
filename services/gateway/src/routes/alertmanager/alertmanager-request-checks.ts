import { callUnary } from "@pulsegate/grpc";
import { alerts, type auth } from "@pulsegate/proto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { errors } from "../../errors.ts";
import type { CoalescedCalls } from "../../peers/coalesced-calls.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { rawBodyOf } from "../../pipeline/raw-body.ts";
import { requireBearerToken } from "../../pipeline/require-bearer-token.ts";
import { requireActiveSubscription } from "../../pipeline/require-valid-signature.ts";
import { isUrlToken } from "../../pipeline/url-token.ts";
import type { RateLimiter } from "../../rate-limit/webhook-rate-limiter.ts";
import { consumeWebhookRateLimit } from "../trigger/webhook-request-checks.ts";

export type AlertmanagerRequestDeps = { peers: Peers; calls: CoalescedCalls; rateLimiter: RateLimiter };

export type CheckedAlertmanagerRequest = { webhook: alerts.Webhook; access: auth.TeamAccess; payload: Buffer };

/**
 * The signed trigger's order of checks (DESIGN §2 steps 1–5) with a bearer token for the signature,
 * since Alertmanager cannot sign a body: a token is present (401 missing_bearer_token), the webhook
 * is known, enabled and an Alertmanager one (404: a signed webhook's URL is not known here), the
 * token is its own (401 invalid_bearer_token, compared by alerts in constant time), the team's
 * subscription is active (403), and the webhook's rate limit admits the request (429). Alerts is
 * asked every time, not through the trigger route's cache: the answer depends on the token, and
 * a rotation or a disable then takes effect at once.
 */
export async function checkAlertmanagerRequest(
  request: FastifyRequest<{ Params: { webhookUrl: string } }>,
  reply: FastifyReply,
  deps: AlertmanagerRequestDeps,
): Promise<CheckedAlertmanagerRequest> {
  const bearerToken = requireBearerToken(request);

  const { webhookUrl } = request.params;
  const { webhook, tokenValid } = isUrlToken(webhookUrl)
    ? await callUnary(deps.peers.alerts, "authenticateWebhook", { webhookUrl, bearerToken })
    : { webhook: undefined, tokenValid: false };
  if (!webhook?.enabled || webhook.source !== alerts.WebhookSource.WEBHOOK_SOURCE_ALERTMANAGER) {
    throw errors.webhookNotFound();
  }

  if (!tokenValid) throw errors.invalidBearerToken();

  // A team that no longer exists answers as its webhook not found, as a signature's check does.
  const access = await deps.calls.teamAccess(webhook.teamId);
  if (!access) throw errors.webhookNotFound();
  requireActiveSubscription(access);

  await consumeWebhookRateLimit(deps.rateLimiter, webhook, reply);
  return { webhook, access, payload: rawBodyOf(request) };
}
