import { callUnary } from "@pulsegate/grpc";
import type { FastifyInstance } from "fastify";
import type { Peers } from "../../peers/connect-peers.ts";
import { severityToProto } from "../../severity.ts";
import type { Severity } from "../../validation/index.ts";
import { channelJson, channelKindToProto, deliveryJson, policyJson } from "./channel-json.ts";
import { createChannelBody, putPolicyBody, updateChannelBody } from "./channel-schemas.ts";
import { present } from "./present.ts";

type TeamParams = { teamId: string };
type CreateChannelBody = { kind: string; name: string; url: string; enabled?: boolean };
type UpdateChannelBody = { name?: string; url?: string; enabled?: boolean };
type PolicyBody = { routes: { severities: Severity[]; channelIds: string[] }[] };

/**
 * Notification channels, the notification policy and deliveries (alerts).
 * A team's existence is checked with auth first: alerts does not know teams.
 */
export async function channelRoutes(app: FastifyInstance, { peers }: { peers: Peers }): Promise<void> {
  const client = peers.alerts;
  const requireTeam = (teamId: string) => callUnary(peers.auth, peers.auth.getTeam, { teamId }, peers.timeoutMs);

  app.post<{ Params: TeamParams; Body: CreateChannelBody }>(
    "/teams/:teamId/channels",
    { schema: { body: createChannelBody } },
    async (request, reply) => {
      const { teamId } = request.params;
      const body = request.body;
      await requireTeam(teamId);
      const response = await callUnary(
        client,
        client.createChannel,
        { teamId, kind: channelKindToProto(body.kind), name: body.name, url: body.url, enabled: body.enabled },
        peers.timeoutMs,
      );
      return reply.code(201).send({ channel: channelJson(present(response.channel, "channel")) });
    },
  );

  app.get<{ Params: TeamParams }>("/teams/:teamId/channels", async (request) => {
    const { teamId } = request.params;
    const [, response] = await Promise.all([
      requireTeam(teamId),
      callUnary(client, client.listChannels, { teamId }, peers.timeoutMs),
    ]);
    return { channels: response.channels.map(channelJson), nextCursor: null };
  });

  app.patch<{ Params: { id: string }; Body: UpdateChannelBody }>(
    "/channels/:id",
    { schema: { body: updateChannelBody } },
    async (request) => {
      const body = request.body;
      const response = await callUnary(
        client,
        client.updateChannel,
        { id: request.params.id, name: body.name, url: body.url, enabled: body.enabled },
        peers.timeoutMs,
      );
      return { channel: channelJson(present(response.channel, "channel")) };
    },
  );

  app.delete<{ Params: { id: string } }>("/channels/:id", async (request, reply) => {
    await callUnary(client, client.deleteChannel, { id: request.params.id }, peers.timeoutMs);
    return reply.code(204).send();
  });

  app.put<{ Params: TeamParams; Body: PolicyBody }>(
    "/teams/:teamId/notification-policy",
    { schema: { body: putPolicyBody } },
    async (request) => {
      const { teamId } = request.params;
      await requireTeam(teamId);
      const response = await callUnary(
        client,
        client.putNotificationPolicy,
        {
          teamId,
          routes: request.body.routes.map((route) => ({
            severities: route.severities.map((severity) => severityToProto(severity)),
            channelIds: route.channelIds,
          })),
        },
        peers.timeoutMs,
      );
      return { policy: policyJson(present(response.policy, "policy")) };
    },
  );

  /** `{"policy": null}`: the team has none, so every channel gets every event. */
  app.get<{ Params: TeamParams }>("/teams/:teamId/notification-policy", async (request) => {
    const { teamId } = request.params;
    const [, response] = await Promise.all([
      requireTeam(teamId),
      callUnary(client, client.getNotificationPolicy, { teamId }, peers.timeoutMs),
    ]);
    return { policy: response.policy ? policyJson(response.policy) : null };
  });

  app.delete<{ Params: TeamParams }>("/teams/:teamId/notification-policy", async (request, reply) => {
    const { teamId } = request.params;
    await requireTeam(teamId);
    await callUnary(client, client.deleteNotificationPolicy, { teamId }, peers.timeoutMs);
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>("/alerts/:id/deliveries", async (request) => {
    const response = await callUnary(client, client.listDeliveries, { alertId: request.params.id }, peers.timeoutMs);
    return { deliveries: response.deliveries.map(deliveryJson), nextCursor: null };
  });

  // Sends a failed delivery again, same delivery id, fresh attempts.
  app.post<{ Params: { id: string } }>("/deliveries/:id/retry", async (request) => {
    const response = await callUnary(client, client.retryDelivery, { id: request.params.id }, peers.timeoutMs);
    return { delivery: deliveryJson(present(response.delivery, "delivery")) };
  });
}
