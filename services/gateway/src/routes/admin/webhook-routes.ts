import { callUnary } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import type { FastifyInstance } from "fastify";
import { page, wrapped } from "../../openapi/admin-components.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { severityToProto } from "../../severity.ts";
import type { Severity } from "../../validation/index.ts";
import { owned, TEAM } from "./access.ts";
import { present } from "./present.ts";
import { publicBaseUrl } from "./public-base-url.ts";
import type { RecordAudit } from "./record-audit.ts";
import { requireTeam } from "./require-team.ts";
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

/** Webhooks (alerts). A team's existence is checked with auth first: alerts does not know teams. */
export async function webhookRoutes(
  app: FastifyInstance,
  options: { peers: Peers; audit: RecordAudit; publicBaseUrl?: string | undefined },
): Promise<void> {
  const { peers, audit } = options;
  const client = peers.alerts;

  app.post<{ Params: { teamId: string }; Body: WebhookBody }>(
    "/teams/:teamId/webhooks",
    {
      config: TEAM,
      schema: {
        tags,
        summary: "Create a webhook",
        body: createWebhookBody,
        response: { 201: wrapped("webhook", "Webhook", "The webhook, with its trigger URL.") },
      },
    },
    async (request, reply) => {
      const { teamId } = request.params;
      const body = request.body;
      await requireTeam(peers, teamId);
      const response = await callUnary(
        client,
        client.createWebhook,
        {
          teamId,
          name: body.name,
          defaultSeverity: severityToProto(body.defaultSeverity),
          enabled: body.enabled,
          filterRules: (body.filterRules ?? []).map(filterRuleToProto),
          rateLimitPerMinute: body.rateLimitPerMinute,
          reopenWindowSeconds: body.reopenWindowSeconds,
          repeatIntervalSeconds: body.repeatIntervalSeconds,
          requireTimestamp: body.requireTimestamp,
        },
        peers.timeoutMs,
      );
      const webhook = present(response.webhook, "webhook");
      await audit(request, {
        action: "webhook.create",
        target: { kind: "webhook", id: webhook.id },
        details: { name: webhook.name },
      });
      return reply.code(201).send({ webhook: webhookJson(webhook, publicBaseUrl(request, options.publicBaseUrl)) });
    },
  );

  app.get<{ Params: { teamId: string } }>(
    "/teams/:teamId/webhooks",
    {
      config: TEAM,
      schema: {
        tags,
        summary: "List a team's webhooks",
        response: { 200: page("webhooks", "Webhook", "Every webhook.") },
      },
    },
    async (request) => {
      const { teamId } = request.params;
      const [, response] = await Promise.all([
        requireTeam(peers, teamId),
        callUnary(client, client.listWebhooks, { teamId }, peers.timeoutMs),
      ]);
      const baseUrl = publicBaseUrl(request, options.publicBaseUrl);
      return { webhooks: response.webhooks.map((webhook) => webhookJson(webhook, baseUrl)), nextCursor: null };
    },
  );

  app.get<{ Params: { id: string } }>(
    "/webhooks/:id",
    {
      config: owned("webhook"),
      schema: { tags, summary: "Get a webhook", response: { 200: wrapped("webhook", "Webhook", "The webhook.") } },
    },
    async (request) => {
      const response = await callUnary(client, client.getWebhook, { id: request.params.id }, peers.timeoutMs);
      return {
        webhook: webhookJson(present(response.webhook, "webhook"), publicBaseUrl(request, options.publicBaseUrl)),
      };
    },
  );

  app.patch<{ Params: { id: string }; Body: Partial<WebhookBody> }>(
    "/webhooks/:id",
    {
      config: owned("webhook"),
      schema: {
        tags,
        summary: "Change a webhook (disable with enabled: false)",
        body: updateWebhookBody,
        response: { 200: wrapped("webhook", "Webhook", "The webhook as changed.") },
      },
    },
    async (request) => {
      const body = request.body;
      const response = await callUnary(
        client,
        client.updateWebhook,
        {
          id: request.params.id,
          name: body.name,
          // UNSPECIFIED leaves the default severity unchanged.
          defaultSeverity: body.defaultSeverity
            ? severityToProto(body.defaultSeverity)
            : alerts.Severity.SEVERITY_UNSPECIFIED,
          enabled: body.enabled,
          filterRules: (body.filterRules ?? []).map(filterRuleToProto),
          replaceFilterRules: body.filterRules !== undefined,
          rateLimitPerMinute: body.rateLimitPerMinute,
          reopenWindowSeconds: body.reopenWindowSeconds,
          repeatIntervalSeconds: body.repeatIntervalSeconds,
          requireTimestamp: body.requireTimestamp,
        },
        peers.timeoutMs,
      );
      const webhook = present(response.webhook, "webhook");
      await audit(request, {
        action: "webhook.update",
        target: { kind: "webhook", id: webhook.id },
        details: { fields: Object.keys(body), ...(body.enabled === undefined ? {} : { enabled: body.enabled }) },
      });
      return { webhook: webhookJson(webhook, publicBaseUrl(request, options.publicBaseUrl)) };
    },
  );
}
