import { channelKindEnum } from "@pulsegate/contract/vocabulary/proto";
import type { UnaryHandlers } from "@pulsegate/grpc";
import type { alerts } from "@pulsegate/proto";
import type { AlertService } from "../alerts/alert-service.ts";
import type { ChannelService } from "../notifications/channels/channel-service.ts";
import type { ChannelTestLeases } from "../notifications/channels/channel-test-leases.ts";
import { sendTestNotification } from "../notifications/channels/test-notification.ts";
import type { DeliveryStore } from "../notifications/deliveries/delivery-store.ts";
import type { Sendable, SendOutcome } from "../notifications/deliveries/dispatcher.ts";
import type { PolicyService } from "../notifications/routing/policy-service.ts";
import { channelToProto, deliveryToProto, policyToProto, routesFromProto } from "./notifications-mapping.ts";
import { signatureSchemeFromProto } from "./proto-mapping.ts";

export type NotificationDeps = {
  channels: ChannelService;
  policies: PolicyService;
  deliveries: DeliveryStore;
  /** Attempts a retried delivery gets (NOTIFY_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** KEK rotation: re-seals every channel's credentials under the current KEK. */
  resealChannels: () => Promise<{ resealed: number; alreadyCurrent: number; kekId: string }>;
  /** Sends one message as the dispatcher sends a delivery (test messages). */
  send: (message: Sendable) => Promise<SendOutcome>;
  /** The bound on test messages in flight (per channel, per team). */
  channelTests: ChannelTestLeases;
};

type NotificationMethods = Pick<
  UnaryHandlers<alerts.AlertsServiceServer>,
  | "createChannel"
  | "listChannels"
  | "describeChannel"
  | "updateChannel"
  | "deleteChannel"
  | "rotateChannelSigningSecret"
  | "putNotificationPolicy"
  | "getNotificationPolicy"
  | "deleteNotificationPolicy"
  | "listDeliveries"
  | "getDelivery"
  | "retryDelivery"
  | "resealChannelCredentials"
  | "testChannel"
>;

/** The notification RPCs of alerts.v1: translation only. */
export function notificationMethods(deps: NotificationDeps, alertService: AlertService): NotificationMethods {
  const { channels, policies, deliveries } = deps;
  return {
    createChannel: async (request) => {
      const { channel, signingSecret } = await channels.create(request.teamId, {
        kind: channelKindEnum.fromProto(request.kind),
        name: request.name,
        url: request.url,
        enabled: request.enabled,
        key: request.key,
        signatureScheme: signatureSchemeFromProto(request.signatureScheme),
      });
      return { channel: channelToProto(channel), signingSecret: signingSecret ?? "" };
    },
    rotateChannelSigningSecret: async (request) => {
      const rotated = await channels.rotateSigningSecret(request.id, request.graceSeconds);
      return {
        channel: channelToProto(rotated.channel),
        signingSecret: rotated.signingSecret,
        previousValidUntil: rotated.previousValidUntil ?? undefined,
      };
    },
    listChannels: async (request) => ({
      channels: (await channels.list(request.teamId)).map(channelToProto),
    }),
    describeChannel: async (request) => ({ channel: channelToProto(await channels.get(request.id)) }),
    updateChannel: async (request) => {
      const channel = await channels.update(request.id, {
        name: request.name,
        url: request.url,
        enabled: request.enabled,
        key: request.key,
      });
      return { channel: channelToProto(channel) };
    },
    deleteChannel: async (request) => {
      await channels.delete(request.id);
      return {};
    },
    putNotificationPolicy: async (request) => ({
      policy: policyToProto(await policies.put(request.teamId, routesFromProto(request.routes))),
    }),
    getNotificationPolicy: async (request) => {
      const policy = await policies.get(request.teamId);
      return { policy: policy ? policyToProto(policy) : undefined };
    },
    deleteNotificationPolicy: async (request) => {
      await policies.delete(request.teamId);
      return {};
    },
    listDeliveries: async (request) => {
      await alertService.get(request.alertId);
      return { deliveries: (await deliveries.listForAlert(request.alertId)).map(deliveryToProto) };
    },
    getDelivery: async (request) => ({ delivery: deliveryToProto(await deliveries.get(request.id)) }),
    retryDelivery: async (request) => {
      const delivery = await deliveries.retry(request.id, deps.maxAttempts);
      return { delivery: deliveryToProto(delivery) };
    },
    resealChannelCredentials: async () => deps.resealChannels(),
    testChannel: async (request) => {
      const channel = await channels.stored(request.id);
      const lease = await deps.channelTests.take(channel);
      const result = await sendTestNotification(deps.send, channel).finally(() =>
        // A lease not given back (the database away) runs out by itself.
        deps.channelTests.release(lease).catch(() => undefined),
      );
      return {
        delivered: result.delivered,
        statusCode: result.statusCode ?? 0,
        error: result.error,
        durationMs: result.durationMs,
      };
    },
  };
}
