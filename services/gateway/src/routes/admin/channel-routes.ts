import type { ChannelKind, Severity, SignatureScheme } from "@pulsegate/contract/vocabulary";
import { callUnary } from "@pulsegate/grpc";
import type { FastifyInstance } from "fastify";
import { channelKindToProto, severityToProto, signatureSchemeToProto } from "../../json-vocabulary.ts";
import { page, wrapped } from "../../openapi/admin-components.ts";
import { conflictResponse, errorResponse, retryAfterHeader } from "../../openapi/error-responses.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { iso } from "./absent-as-null.ts";
import { owned, TEAM } from "./access.ts";
import { channelJson, deliveryJson, policyJson } from "./channel-json.ts";
import { createChannelBody, putPolicyBody, rotateSigningSecretBody, updateChannelBody } from "./channel-schemas.ts";
import { type OwnedCollection, ownedUpdateRoute, teamCreateRoute, teamListRoute } from "./collection-routes.ts";
import type { RecordAudit } from "./record-audit.ts";
import { requirePresent } from "./require-present.ts";
import { requireTeam } from "./require-team.ts";
import { noBody, refuseCursor } from "./schemas.ts";

type TeamParams = { teamId: string };
type CreateChannelBody = {
  kind: ChannelKind;
  name: string;
  url: string;
  enabled?: boolean;
  key?: string;
  signatureScheme?: SignatureScheme;
};
type UpdateChannelBody = { name?: string; url?: string; enabled?: boolean; key?: string };
type PolicyBody = { routes: { severities: Severity[]; channelIds: string[] }[] };

const tags = ["notifications"];
const CHANNELS: OwnedCollection = { plural: "channels", kind: "channel", ref: "Channel", tags };
const noContent = (description: string) => ({ type: "null", description });
const signingSecret = {
  type: "string",
  pattern: "^whsec_[A-Za-z0-9+/]{43}=$",
  description:
    "The channel's Standard Webhooks signing secret (whsec_ and base64 of 32 random bytes): shown this once, then only sealed.",
} as const;
const policyAnswer = {
  description: "The team's policy; null: none, so every channel gets every event.",
  type: "object",
  required: ["policy"],
  properties: { policy: { anyOf: [{ $ref: "NotificationPolicy#" }, { type: "null" }] } },
};

/**
 * Notification channels, the notification policy and deliveries (alerts).
 * A team's existence is checked with auth first: alerts does not know teams.
 */
export async function channelRoutes(
  app: FastifyInstance,
  { peers, audit }: { peers: Peers; audit: RecordAudit },
): Promise<void> {
  const client = peers.alerts;

  teamCreateRoute<CreateChannelBody>(app, peers, audit, CHANNELS, {
    summary: "Create a notification channel",
    body: createChannelBody,
    description:
      "The channel (its URL masked); a standard-webhooks webhook channel's signing secret beside it, shown this once.",
    responses: {
      409: errorResponse("The team has as many channels as it may have, or one with that name.", [
        "too_many_channels",
        "name_taken",
      ]),
    },
    answerFields: { signingSecret },
    create: async (teamId, body) => {
      const response = await callUnary(client, "createChannel", {
        teamId,
        kind: channelKindToProto(body.kind),
        name: body.name,
        url: body.url,
        enabled: body.enabled,
        key: body.key ?? "",
        signatureScheme: signatureSchemeToProto(body.signatureScheme),
      });
      const channel = requirePresent(response.channel, "channel");
      const json = channelJson(channel);
      return {
        resource: channel,
        json,
        details: { kind: body.kind, ...(json.signatureScheme ? { signatureScheme: json.signatureScheme } : {}) },
        answer: response.signingSecret ? { signingSecret: response.signingSecret } : {},
      };
    },
  });

  teamListRoute(app, peers, CHANNELS, {
    description: "Every channel.",
    list: async (teamId) => {
      const response = await callUnary(client, "listChannels", { teamId });
      return response.channels.map(channelJson);
    },
  });

  ownedUpdateRoute<UpdateChannelBody>(app, audit, CHANNELS, {
    summary: "Change a channel (a disabled one gets nothing; its pending deliveries are cancelled)",
    body: updateChannelBody,
    description: "The channel as changed.",
    update: async (id, body) => {
      const response = await callUnary(client, "updateChannel", {
        id,
        name: body.name,
        url: body.url,
        enabled: body.enabled,
        key: body.key,
      });
      const channel = requirePresent(response.channel, "channel");
      return { resource: channel, json: channelJson(channel) };
    },
  });

  app.post<{ Params: { id: string }; Body: { graceSeconds?: number } }>(
    "/channels/:id/signing-secret/rotate",
    {
      config: owned("channel"),
      schema: {
        tags,
        summary: "Rotate a standard-webhooks channel's signing secret",
        description:
          "The new secret is shown this once; until previousValidUntil every delivery carries a second webhook-signature entry made with the previous one, so the receiver can switch without losing one.",
        body: rotateSigningSecretBody,
        response: {
          200: {
            description: "The new secret (shown once), and until when the previous one still signs (null: no longer).",
            type: "object",
            required: ["signingSecret", "previousValidUntil", "channel"],
            properties: {
              signingSecret,
              previousValidUntil: { type: ["string", "null"], format: "date-time" },
              channel: { $ref: "Channel#" },
            },
          },
          409: errorResponse("Only a standard-webhooks webhook channel has a signing secret of its own.", [
            "no_signing_secret",
          ]),
        },
      },
    },
    async (request) => {
      const graceSeconds = request.body.graceSeconds;
      const response = await callUnary(client, "rotateChannelSigningSecret", {
        id: request.params.id,
        graceSeconds,
      });
      const channel = requirePresent(response.channel, "channel");
      await audit(request, {
        action: "channel.rotate_signing_secret",
        target: { kind: "channel", id: channel.id },
        details: graceSeconds === undefined ? {} : { graceSeconds },
      });
      return {
        signingSecret: response.signingSecret,
        previousValidUntil: iso(response.previousValidUntil),
        channel: channelJson(channel),
      };
    },
  );

  app.post<{ Params: { id: string } }>(
    "/channels/:id/test",
    {
      config: owned("channel"),
      schema: {
        tags,
        summary: "Send a test notification through a channel now, and say how the receiver answered",
        operationId: "testChannel",
        description:
          "A clearly marked test message (event type channel.test, title starting [TEST], severity sev4) goes through the channel's real sender at once: signed as deliveries are, to its URL or mail relay, under the same timeout and private-address guard. Nothing is stored and nothing is retried; a disabled channel is tested too. PagerDuty and Opsgenie get the test incident and, once they took it, its resolve. 200 whatever the receiver answered: `test.delivered` says. One test per channel at a time and at most 3 per team (across replicas): beyond, 429 `channel_test_in_progress` with Retry-After.",
        body: noBody,
        response: {
          429: errorResponse(
            "Too many failed credentials from this client address (`too_many_failures`), or a test of this channel is still being sent or the team has 3 in flight (`channel_test_in_progress`): retry after Retry-After.",
            ["too_many_failures", "channel_test_in_progress"],
            { ...retryAfterHeader },
          ),
          200: {
            description: "How the receiver answered.",
            type: "object",
            required: ["test"],
            properties: {
              test: {
                type: "object",
                required: ["delivered", "statusCode", "error", "durationMs"],
                properties: {
                  delivered: { type: "boolean", description: "The receiver took it (2xx; for email, the relay)." },
                  statusCode: {
                    type: ["integer", "null"],
                    description:
                      "The receiver's HTTP status (an SMTP answer mapped as deliveries map it); null: no answer.",
                  },
                  error: {
                    type: ["string", "null"],
                    description: "Why it was not delivered (never the URL or a secret); null when delivered.",
                    examples: ["HTTP 404", "connection refused", "timed out after 10000 ms"],
                  },
                  durationMs: { type: "integer", description: "How long the attempt took." },
                },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const result = await callUnary(
        client,
        "testChannel",
        { id: request.params.id },
        { deadlineMs: peers.channelTestDeadlineMs },
      );
      await audit(request, {
        action: "channel.test",
        target: { kind: "channel", id: request.params.id },
        details: { delivered: result.delivered },
      });
      return {
        test: {
          delivered: result.delivered,
          statusCode: result.statusCode === 0 ? null : result.statusCode,
          error: result.error === "" ? null : result.error,
          durationMs: result.durationMs,
        },
      };
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/channels/:id",
    {
      config: owned("channel"),
      schema: {
        tags,
        summary: "Delete a channel (its pending deliveries are cancelled)",
        response: { 204: noContent("Deleted.") },
      },
    },
    async (request, reply) => {
      await callUnary(client, "deleteChannel", { id: request.params.id });
      await audit(request, { action: "channel.delete", target: { kind: "channel", id: request.params.id } });
      return reply.code(204).send();
    },
  );

  app.put<{ Params: TeamParams; Body: PolicyBody }>(
    "/teams/:teamId/notification-policy",
    {
      config: TEAM,
      schema: {
        tags,
        summary: "Set the team's notification policy",
        body: putPolicyBody,
        response: { 200: wrapped("policy", "NotificationPolicy", "The policy.") },
      },
    },
    async (request) => {
      const { teamId } = request.params;
      await requireTeam(peers, teamId);
      const response = await callUnary(client, "putNotificationPolicy", {
        teamId,
        routes: request.body.routes.map((route) => ({
          severities: route.severities.map((severity) => severityToProto(severity)),
          channelIds: route.channelIds,
        })),
      });
      await audit(request, {
        action: "notification_policy.put",
        target: { kind: "notification_policy", id: teamId },
        details: { routes: request.body.routes.length },
      });
      return { policy: policyJson(requirePresent(response.policy, "policy")) };
    },
  );

  /** `{"policy": null}`: the team has none, so every channel gets every event. */
  app.get<{ Params: TeamParams }>(
    "/teams/:teamId/notification-policy",
    { config: TEAM, schema: { tags, summary: "Get the team's notification policy", response: { 200: policyAnswer } } },
    async (request) => {
      const { teamId } = request.params;
      const [, response] = await Promise.all([
        requireTeam(peers, teamId),
        callUnary(client, "getNotificationPolicy", { teamId }),
      ]);
      return { policy: response.policy ? policyJson(response.policy) : null };
    },
  );

  app.delete<{ Params: TeamParams }>(
    "/teams/:teamId/notification-policy",
    {
      config: TEAM,
      schema: {
        tags,
        summary: "Delete the team's notification policy (every channel then gets every event)",
        response: { 204: noContent("Deleted.") },
      },
    },
    async (request, reply) => {
      const { teamId } = request.params;
      await requireTeam(peers, teamId);
      await callUnary(client, "deleteNotificationPolicy", { teamId });
      await audit(request, {
        action: "notification_policy.delete",
        target: { kind: "notification_policy", id: teamId },
      });
      return reply.code(204).send();
    },
  );

  app.get<{ Params: { id: string } }>(
    "/alerts/:id/deliveries",
    {
      config: owned("alert"),
      schema: {
        tags,
        summary: "Every notification delivery of an alert, with attempts and status",
        response: { 200: page("deliveries", "Delivery", "Every delivery of the alert.") },
      },
      // Before the alert's team is looked up (access.ts): a cursor here is refused as sent.
      preValidation: async (request) => refuseCursor(request.query),
    },
    async (request) => {
      const response = await callUnary(client, "listDeliveries", { alertId: request.params.id });
      return { deliveries: response.deliveries.map(deliveryJson), nextCursor: null };
    },
  );

  // Sends a failed delivery again, same delivery id, fresh attempts.
  app.post<{ Params: { id: string } }>(
    "/deliveries/:id/retry",
    {
      config: owned("delivery"),
      schema: {
        tags,
        summary: "Send a failed delivery again (same delivery id, fresh attempts)",
        response: { 200: wrapped("delivery", "Delivery", "The delivery, pending again."), 409: conflictResponse },
      },
    },
    async (request) => {
      const response = await callUnary(client, "retryDelivery", { id: request.params.id });
      const delivery = requirePresent(response.delivery, "delivery");
      await audit(request, { action: "delivery.retry", target: { kind: "delivery", id: delivery.id } });
      return { delivery: deliveryJson(delivery) };
    },
  );
}
