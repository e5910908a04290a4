import type { Severity, SignatureScheme, WebhookSource } from "@pulsegate/contract/vocabulary";
import { callUnary } from "@pulsegate/grpc";
import type { alerts } from "@pulsegate/proto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { severityToProto, signatureSchemeToProto, webhookSourceToProto } from "../../json-vocabulary.ts";
import { conflictResponse } from "../../openapi/error-responses.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import type { LookupNotice } from "../../pipeline/lookup-notices.ts";
import { iso } from "./absent-as-null.ts";
import { owned } from "./access.ts";
import {
  type OwnedCollection,
  ownedDeleteRoute,
  ownedGetRoute,
  ownedUpdateRoute,
  teamCreateRoute,
  teamListRoute,
} from "./collection-routes.ts";
import { answeredWithPublicUrls, publicBaseUrl } from "./public-base-url.ts";
import type { RecordAudit } from "./record-audit.ts";
import { requirePresent } from "./require-present.ts";
import type { ResourceOwners } from "./resource-owners.ts";
import { createWebhookBody, rotateBearerTokenBody, updateWebhookBody } from "./schemas.ts";
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

type CreateWebhookBody = WebhookBody & { source?: WebhookSource };

/** An Alertmanager webhook's bearer token: `pgam_` and 43 base64url characters. */
const bearerToken = {
  type: "string",
  pattern: "^pgam_[A-Za-z0-9_-]{43}$",
  description:
    "Alertmanager webhooks: the bearer token for `http_config.authorization.credentials`, shown this once (only its SHA-256 is stored).",
} as const;

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
  options: {
    peers: Peers;
    audit: RecordAudit;
    publicBaseUrl?: string | undefined;
    owners: ResourceOwners;
    /** Every gateway forgets the look-ups a deletion makes stale, before it is answered. */
    announceLookups: (notice: LookupNotice) => Promise<void>;
  },
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

  teamCreateRoute<CreateWebhookBody>(app, peers, audit, WEBHOOKS, {
    summary: "Create a webhook",
    body: createWebhookBody,
    description:
      "The webhook, with its trigger URL; an Alertmanager webhook's bearer token beside it, shown this once.",
    answerFields: { bearerToken },
    create: async (teamId, body, request) => {
      const response = await callUnary(client, "createWebhook", {
        teamId,
        name: body.name,
        ...settingsToProto(body),
        source: webhookSourceToProto(body.source),
      });
      const source = body.source ?? "signed";
      return {
        ...(await answered(response, request)),
        details: { source },
        answer: response.bearerToken ? { bearerToken: response.bearerToken } : {},
      };
    },
  });

  teamListRoute(app, peers, WEBHOOKS, {
    description: "Every webhook.",
    list: async (teamId, request) => {
      const response = await callUnary(client, "listWebhooks", { teamId });
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
    get: async (id, request) => (await answered(await callUnary(client, "getWebhook", { id }), request)).json,
  });

  ownedUpdateRoute<Partial<WebhookBody>>(app, audit, WEBHOOKS, {
    summary: "Change a webhook (disable with enabled: false)",
    body: updateWebhookBody,
    description: "The webhook as changed.",
    update: async (id, body, request) =>
      answered(
        await callUnary(client, "updateWebhook", {
          id,
          name: body.name,
          ...settingsToProto(body),
          replaceFilterRules: body.filterRules !== undefined,
        }),
        request,
      ),
  });

  ownedDeleteRoute(app, audit, WEBHOOKS, {
    summary: "Delete a webhook (its triggers answer 404 at once; the alerts it opened are kept)",
    operationId: "deleteWebhook",
    delete: async (id) => {
      const webhook = requirePresent((await callUnary(client, "deleteWebhook", { id })).webhook, "webhook");
      await options.announceLookups({ kind: "webhook", webhookUrl: webhook.webhookUrl });
      options.owners.forget("webhook", id);
      return webhook;
    },
  });

  app.post<{ Params: { id: string }; Body: { graceSeconds?: number } }>(
    "/webhooks/:id/bearer-token/rotate",
    {
      config: owned("webhook"),
      schema: {
        tags,
        summary: "Rotate an Alertmanager webhook's bearer token",
        description:
          "The new token is shown this once; the replaced one keeps working for graceSeconds, and one replaced before stops at once. A signed webhook has no bearer token (409).",
        body: rotateBearerTokenBody,
        response: {
          200: {
            description: "The new token (shown once), until when the replaced one still works, and the webhook.",
            type: "object",
            required: ["bearerToken", "previousValidUntil", "webhook"],
            properties: {
              bearerToken,
              previousValidUntil: { type: ["string", "null"], format: "date-time" },
              webhook: { $ref: "Webhook#" },
            },
          },
          409: conflictResponse,
        },
      },
    },
    async (request) => {
      const { graceSeconds } = request.body;
      const response = await callUnary(client, "rotateWebhookBearerToken", {
        id: request.params.id,
        graceSeconds,
      });
      await audit(request, {
        action: "webhook.rotate_bearer_token",
        target: { kind: "webhook", id: request.params.id },
        details: graceSeconds === undefined ? {} : { graceSeconds },
      });
      return {
        bearerToken: response.bearerToken,
        previousValidUntil: iso(response.previousValidUntil),
        webhook: (await answered({ webhook: requirePresent(response.webhook, "webhook") }, request)).json,
      };
    },
  );
}
