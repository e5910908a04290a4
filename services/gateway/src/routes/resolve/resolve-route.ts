import { callUnary } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import type { FastifyInstance } from "fastify";
import { errors } from "../../errors.ts";
import { documentationOnly, resolveRouteSchema } from "../../openapi/public-route-docs.ts";
import type { CoalescedCalls } from "../../peers/coalesced-calls.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { readDryRun } from "../../pipeline/dry-run.ts";
import { idempotencyFields, markReplayed, readIdempotencyKey } from "../../pipeline/idempotency-key.ts";
import { parseJsonBody } from "../../pipeline/json-body.ts";
import type { LookupCache } from "../../pipeline/lookup-cache.ts";
import { contentTypeOf } from "../../pipeline/raw-body.ts";
import { type ReplayGuard, takeOnce } from "../../pipeline/replay-guard.ts";
import type { RateLimiter } from "../../rate-limit/webhook-rate-limiter.ts";
import { parseResolveBody } from "../../validation/index.ts";
import { checkWebhookRequest } from "../trigger/webhook-request-checks.ts";
import { resolveResponse } from "./resolve-response.ts";

export type ResolveRouteOptions = {
  peers: Peers;
  calls: CoalescedCalls;
  rateLimiter: RateLimiter;
  replayGuard: ReplayGuard;
  /** The trigger route's webhook look-ups (one cache for both). */
  webhooks: LookupCache<alerts.Webhook | undefined>;
};

/**
 * POST /api/alerts/resolve/:webhookUrl — the trigger's checks (DESIGN §2
 * steps 1–6, the webhook's rate limit shared with its triggers), then the
 * team's open alert with the body's group_key is resolved. Concurrent resolves
 * share one ResolveAlertsByKey call (calls.resolveByKey), as triggers do; dry runs ask alone.
 */
export function resolveRoute(app: FastifyInstance, options: ResolveRouteOptions): void {
  const { peers, calls, rateLimiter, replayGuard, webhooks } = options;
  const call = (items: alerts.ResolveByKeyItem[], dryRun: boolean) =>
    callUnary(peers.alerts, "resolveAlertsByKey", { items, dryRun });

  app.post<{ Params: { webhookUrl: string } }>(
    "/api/alerts/resolve/:webhookUrl",
    { schema: resolveRouteSchema, validatorCompiler: documentationOnly },
    async (request, reply) => {
      const checked = await checkWebhookRequest(request, reply, { calls, rateLimiter, webhooks });
      const { webhook, payload } = checked;
      const dryRun = readDryRun(request.query);
      // A resolve stores no number: only its group_key is read.
      const body = parseResolveBody(parseJsonBody(contentTypeOf(request), payload).value);
      if (!body.ok) throw errors.invalidRequest(body.details);
      const idempotencyKey = dryRun ? "" : readIdempotencyKey(request, checked.webhookId);
      const item: alerts.ResolveByKeyItem = {
        teamId: webhook.teamId,
        source: alerts.AlertSource.ALERT_SOURCE_WEBHOOK,
        sourceId: webhook.id,
        groupKey: body.value.group_key,
        ...idempotencyFields(idempotencyKey, "resolve", webhook.id, payload),
      };
      if (!dryRun) await takeOnce(replayGuard, { sourceId: webhook.id, ...checked, idempotencyKey });
      const result = dryRun ? (await call([item], true)).results[0] : await calls.resolveByKey(item);
      markReplayed(reply, result?.replayed);
      if (result?.outcome === alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_SOURCE_NOT_FOUND) {
        webhooks.invalidate(request.params.webhookUrl);
      }
      return reply.code(200).send(resolveResponse(result, body.value.group_key, dryRun));
    },
  );
}
