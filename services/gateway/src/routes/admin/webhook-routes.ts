import { callUnary } from "@pulsegate/grpc";
import type { Severity } from "@pulsegate/vocabulary";
import type { FastifyInstance } from "fastify";
import { severityToProto } from "../../json-vocabulary.ts";
import { wrapped } from "../../openapi/admin-components.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { owned } from "./access.ts";
import { ownedUpdateRoute, teamCreateRoute, teamListRoute } from "./collection-routes.ts";
import { present } from "./present.ts";
import { publicBaseUrl } from "./public-base-url.ts";
import type { RecordAudit } from "./record-audit.ts";
import { createWebhookBody, updateWebhookBody } from "./schemas.ts";
import { type FilterRuleJson, filterRuleToProto, webhookJson } from "./to-json.ts";

type WebhookBody = {
  name: string;
  defaultSeverity?: Severity;
  enabled?: boolean;
  filterRules?: FilterRuleJson[];
  rateLimitPerMinute?: number;
  reopenWindowSeconds?: number;
  repeatIntervalSeconds?: number;
  requireTimestamp?: boolean;
};

const tags = ["webhooks"];

/** The settings both create and change send; absent ones (UNSPECIFIED severity too) mean the default or unchanged. */
const settingsToProto = (body: Partial<WebhookBody>) => ({
  defaultSeverity: severityToProto(body.defaultSeverity),
  enabled: body.enabled,
  filterRules: (body.filterRules ?? []).map(filterRuleToProto),
  rateLimitPerMinute: body.rateLimitPerMinute,
  reopenWindowSeconds: body.reopenWindowSeconds,
  repeatIntervalSeconds: body.repeatIntervalSeconds,
  requireTimestamp: body.requireTimestamp,
});

/** Webhooks (alerts). A team's existence is checked with auth first: alerts does not know teams. */
export async function webhookRoutes(
  app: FastifyInstance,
  options: { peers: Peers; audit: RecordAudit; publicBaseUrl?: string | undefined },
): Promise<void> {
  const { peers, audit } = options;
  const client = peers.alerts;

  teamCreateRoute<WebhookBody>(app, peers, audit, {
    plural: "webhooks",
    kind: "webhook",
    ref: "Webhook",
    tags,
    summary: "Create a webhook",
    body: createWebhookBody,
    description: "The webhook, with its trigger URL.",
    create: async (teamId, body, request) => {
      const response = await callUnary(client, client.createWebhook, {
        teamId,
        name: body.name,
        ...settingsToProto(body),
      });
      const webhook = present(response.webhook, "webhook");
      return { created: webhook, json: webhookJson(webhook, publicBaseUrl(request, options.publicBaseUrl)) };
    },
  });

  teamListRoute(app, peers, {
    plural: "webhooks",
    ref: "Webhook",
    tags,
    description: "Every webhook.",
    list: async (teamId, request) => {
      const response = await callUnary(client, client.listWebhooks, { teamId });
      const baseUrl = publicBaseUrl(request, options.publicBaseUrl);
      return response.webhooks.map((webhook) => webhookJson(webhook, baseUrl));
    },
  });

  app.get<{ Params: { id: string } }>(
    "/webhooks/:id",
    {
      config: owned("webhook"),
      schema: { tags, summary: "Get a webhook", response: { 200: wrapped("webhook", "Webhook", "The webhook.") } },
    },
    async (request) => {
      const response = await callUnary(client, client.getWebhook, { id: request.params.id });
      return {
        webhook: webhookJson(present(response.webhook, "webhook"), publicBaseUrl(request, options.publicBaseUrl)),
      };
    },
  );

  ownedUpdateRoute<Partial<WebhookBody>>(app, audit, {
    plural: "webhooks",
    kind: "webhook",
    ref: "Webhook",
    tags,
    summary: "Change a webhook (disable with enabled: false)",
    body: updateWebhookBody,
    description: "The webhook as changed.",
    update: async (id, body, request) => {
      const response = await callUnary(client, client.updateWebhook, {
        id,
        name: body.name,
        ...settingsToProto(body),
        replaceFilterRules: body.filterRules !== undefined,
      });
      const webhook = present(response.webhook, "webhook");
      return { updated: webhook, json: webhookJson(webhook, publicBaseUrl(request, options.publicBaseUrl)) };
    },
  });
}
