import { alerts } from "@pulsegate/proto";
import type { FastifyInstance } from "fastify";
import { errors } from "../../errors.ts";
import { triggerOutcomes } from "../../metrics.ts";
import { alertmanagerRouteSchema } from "../../openapi/alertmanager-route-docs.ts";
import { documentationOnly } from "../../openapi/public-route-docs.ts";
import type { CoalescedCalls } from "../../peers/coalesced-calls.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { parseJsonBody } from "../../pipeline/json-body.ts";
import { contentTypeOf } from "../../pipeline/raw-body.ts";
import type { RateLimiter } from "../../rate-limit/webhook-rate-limiter.ts";
import { parseAlertmanagerPayload } from "../../validation/alertmanager-payload.ts";
import { toTriggerItem } from "../trigger/trigger-item.ts";
import { type AlertmanagerAction, alertmanagerAction } from "./alertmanager-alert.ts";
import { type AlertOutcome, resolveOutcome, triggerOutcome } from "./alertmanager-outcomes.ts";
import { checkAlertmanagerRequest } from "./alertmanager-request-checks.ts";

export type AlertmanagerRouteOptions = { peers: Peers; calls: CoalescedCalls; rateLimiter: RateLimiter };

export const ALERTMANAGER_MESSAGE = "Alertmanager payload received";

/**
 * POST /api/alerts/alertmanager/:webhookUrl — Prometheus Alertmanager's webhook payload (version 4)
 * for an Alertmanager webhook (docs/integrations.md). After the checks (alertmanager-request-checks.ts)
 * and the payload's shape, each alert becomes one trigger (firing) or one resolve by its key
 * (resolved): the same TriggerAlert and ResolveAlertsByKey calls as the signed endpoints, so filter
 * rules, silences, quotas and notifications apply alike, and the alerts of a payload share one call
 * of each. The answer (200) lists each alert's outcome in the payload's order.
 */
export async function alertmanagerRoute(app: FastifyInstance, options: AlertmanagerRouteOptions): Promise<void> {
  const { calls } = options;

  app.post<{ Params: { webhookUrl: string } }>(
    "/api/alerts/alertmanager/:webhookUrl",
    // Documented, not validated by Fastify: the body is read after the token, as a trigger's after its signature.
    { schema: alertmanagerRouteSchema, validatorCompiler: documentationOnly },
    async (request, reply) => {
      const { webhook, access, payload } = await checkAlertmanagerRequest(request, reply, options);
      // Labels and annotations are strings: no number of the body is stored.
      const parsed = parseAlertmanagerPayload(parseJsonBody(contentTypeOf(request), payload).value);
      if (!parsed.ok) throw errors.invalidRequest(parsed.details);

      const apply = async (action: AlertmanagerAction): Promise<AlertOutcome> => {
        const { fingerprint } = action;
        switch (action.kind) {
          case "invalid":
            return { fingerprint, status: "invalid", details: action.details };
          case "trigger": {
            const outcome = triggerOutcome(
              fingerprint,
              await calls.triggerAlert(toTriggerItem(webhook, access, action.body)),
            );
            if (outcome.status !== "quota_exhausted" && outcome.status !== "invalid") {
              triggerOutcomes.add(1, { outcome: outcome.status });
            }
            return outcome;
          }
          case "resolve":
            return resolveOutcome(
              fingerprint,
              await calls.resolveByKey({
                teamId: webhook.teamId,
                source: alerts.AlertSource.ALERT_SOURCE_WEBHOOK,
                sourceId: webhook.id,
                groupKey: fingerprint,
                idempotencyKey: "",
                requestFingerprint: "",
              }),
            );
        }
      };
      // Started together, so each kind goes to alerts as one coalesced call.
      const outcomes = await Promise.all(
        parsed.value.alerts.map((alert, index) => apply(alertmanagerAction(alert, `alerts[${index}]`))),
      );
      return reply.code(200).send({ message: ALERTMANAGER_MESSAGE, alerts: outcomes });
    },
  );
}
