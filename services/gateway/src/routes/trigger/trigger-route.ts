import { callUnary } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import type { FastifyInstance } from "fastify";
import { errors } from "../../errors.ts";
import { triggerOutcomes } from "../../metrics.ts";
import { documentationOnly, triggerRouteSchema } from "../../openapi/public-route-docs.ts";
import type { CoalescedCalls } from "../../peers/coalesced-calls.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { readDryRun } from "../../pipeline/dry-run.ts";
import { idempotencyFields, markReplayed, readIdempotencyKey } from "../../pipeline/idempotency-key.ts";
import { parseJsonBody } from "../../pipeline/json-body.ts";
import type { LookupCache } from "../../pipeline/lookup-cache.ts";
import { contentTypeOf } from "../../pipeline/raw-body.ts";
import { type ReplayGuard, takeOnce } from "../../pipeline/replay-guard.ts";
import type { RateLimiter } from "../../rate-limit/webhook-rate-limiter.ts";
import { parseTriggerBody } from "../../validation/index.ts";
import { resolveRoute } from "../resolve/resolve-route.ts";
import { toTriggerItem } from "./trigger-item.ts";
import { dryRunTriggerResponse, triggerResponse } from "./trigger-response.ts";
import { checkWebhookRequest } from "./webhook-request-checks.ts";

export type TriggerRouteOptions = {
  peers: Peers;
  calls: CoalescedCalls;
  rateLimiter: RateLimiter;
  replayGuard: ReplayGuard;
  /** Step 2's look-ups (webhook-lookup.ts), shared with the resolve route. */
  webhooks: LookupCache<alerts.Webhook | undefined>;
};

/** POST /api/alerts/trigger/:webhookUrl — DESIGN §2 steps 1–7, in that order. */
export async function triggerRoute(app: FastifyInstance, options: TriggerRouteOptions): Promise<void> {
  const { peers, calls, rateLimiter, replayGuard, webhooks } = options;

  app.post<{ Params: { webhookUrl: string } }>(
    "/api/alerts/trigger/:webhookUrl",
    // Documented, not validated by Fastify: the body is checked at step 6, after the signature.
    { schema: triggerRouteSchema, validatorCompiler: documentationOnly },
    async (request, reply) => {
      const checked = await checkWebhookRequest(request, reply, { calls, rateLimiter, webhooks });
      const { webhook, access, payload } = checked;

      const dryRun = readDryRun(request.query);
      const { value, inexactNumbers } = parseJsonBody(contentTypeOf(request), payload);
      const body = parseTriggerBody(value, inexactNumbers);
      if (!body.ok) throw errors.invalidRequest(body.details);

      const idempotencyKey = readIdempotencyKey(request, checked.webhookId);
      if (dryRun) {
        const items = [toTriggerItem(webhook, access, body.value)];
        const preview = await callUnary(peers.alerts, "previewTriggers", { items });
        return reply.code(200).send(dryRunTriggerResponse(preview.results[0], body.value.group_key ?? null));
      }
      const item = toTriggerItem(
        webhook,
        access,
        body.value,
        idempotencyFields(idempotencyKey, "trigger", webhook.id, payload),
      );
      await takeOnce(replayGuard, { sourceId: webhook.id, ...checked, idempotencyKey });
      const result = await calls.triggerAlert(item);
      markReplayed(reply, result.replayed);
      if (result.outcome === alerts.TriggerOutcome.TRIGGER_OUTCOME_SOURCE_NOT_FOUND) {
        webhooks.invalidate(request.params.webhookUrl);
      }
      const answer = triggerResponse(result);
      if (typeof answer.body.status === "string") triggerOutcomes.add(1, { outcome: answer.body.status });
      return reply.code(answer.status).send(answer.body);
    },
  );
  resolveRoute(app, { peers, calls, rateLimiter, replayGuard, webhooks });
}
