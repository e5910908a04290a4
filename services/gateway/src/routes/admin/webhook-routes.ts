import { callUnary } from "@pulsegate/grpc";
import type { alerts } from "@pulsegate/proto";
import type { Severity, SignatureScheme } from "@pulsegate/vocabulary";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { severityToProto, signatureSchemeToProto } from "../../json-vocabulary.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import {
  type OwnedCollection,
  ownedGetRoute,
  ownedUpdateRoute,
  teamCreateRoute,
  teamListRoute,
} from "./collection-routes.ts";
import { answeredWithPublicUrls, publicBaseUrl } from "./public-base-url.ts";
import type { RecordAudit } from "./record-audit.ts";
import { createWebhookBody, updateWebhookBody } from "./schemas.ts";
import { withTeamSecretFingerprints } from "./signing-key.ts";
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
  signatureScheme?: SignatureScheme;
};

const tags = ["webhooks"];
const WEBHOOKS: OwnedCollection = { plural: "webhooks", kind: "webhook", ref: "Webhook", tags };

/** The settings both create and change send; absent ones (UNSPECIFIED severity too) mean the default or unchanged. */
const settingsToProto = (body: Partial<WebhookBody>) => ({
  defaultSeverity: severityToProto(body.defaultSeverity),
  enabled: body.enabled,
  filterRules: (body.filterRules ?? []).map(filterRuleToProto),
  rateLimitPerMinute: body.rateLimitPerMinute,
  reopenWindowSeconds: body.reopenWindowSeconds,
  repeatIntervalSeconds: body.repeatIntervalSeconds,
  requireTimestamp: body.requireTimestamp,
  signatureScheme: signatureSchemeToProto(body.signatureScheme),
});

/** Webhooks (alerts). A team's existence is checked with auth first: alerts does not know teams. */
export async function webhookRoutes(
  app: FastifyInstance,
  options: { peers: Peers; audit: RecordAudit; publicBaseUrl?: string | undefined },
): Promise<void> {
  const { peers, audit } = options;
  const client = peers.alerts;
  /** The webhook a call answered with, and its JSON (its trigger URL on the host this request came to). */
  const withUrls = answeredWithPublicUrls("webhook", webhookJson, options.publicBaseUrl);
  const answered = async (response: { webhook?: alerts.Webhook | undefined }, request: FastifyRequest) => {
    const { resource, json } = withUrls(response, request);
    const [withFingerprint] = await withTeamSecretFingerprints(peers, [json]);
    return { resource, json: withFingerprint };
  };

  teamCreateRoute<WebhookBody>(app, peers, audit, WEBHOOKS, {
    summary: "Create a webhook",
    body: createWebhookBody,
    description: "The webhook, with its trigger URL.",
    create: async (teamId, body, request) =>
      answered(
        await callUnary(client, client.createWebhook, { teamId, name: body.name, ...settingsToProto(body) }),
        request,
      ),
  });

  teamListRoute(app, peers, WEBHOOKS, {
    description: "Every webhook.",
    list: async (teamId, request) => {
      const response = await callUnary(client, client.listWebhooks, { teamId });
      const baseUrl = publicBaseUrl(request, options.publicBaseUrl);
      return withTeamSecretFingerprints(
        peers,
        response.webhooks.map((webhook) => webhookJson(webhook, baseUrl)),
      );
    },
  });

  ownedGetRoute(app, WEBHOOKS, {
    summary: "Get a webhook",
    description: "The webhook.",
    get: async (id, request) => (await answered(await callUnary(client, client.getWebhook, { id }), request)).json,
  });

  ownedUpdateRoute<Partial<WebhookBody>>(app, audit, WEBHOOKS, {
    summary: "Change a webhook (disable with enabled: false)",
    body: updateWebhookBody,
    description: "The webhook as changed.",
    update: async (id, body, request) =>
      answered(
        await callUnary(client, client.updateWebhook, {
          id,
          name: body.name,
          ...settingsToProto(body),
          replaceFilterRules: body.filterRules !== undefined,
        }),
        request,
      ),
  });
}
