import {
  channelKindEnum,
  deliveryEventEnum,
  deliveryStatusEnum,
  severityEnum,
  signatureSchemeEnum,
} from "@pulsegate/contract/vocabulary/proto";
import { alerts } from "@pulsegate/proto";
import type { ChannelView } from "../notifications/channels/channel.ts";
import type { DeliveryView } from "../notifications/deliveries/delivery.ts";
import type { RouteInput } from "../notifications/routing/check-routes.ts";
import type { PolicyView } from "../notifications/routing/policy-service.ts";

export function channelToProto(channel: ChannelView): alerts.Channel {
  return {
    id: channel.id,
    teamId: channel.teamId,
    kind: channelKindEnum.toProto(channel.kind),
    name: channel.name,
    maskedUrl: channel.maskedUrl,
    enabled: channel.enabled,
    createdAt: channel.createdAt,
    updatedAt: channel.updatedAt,
    disabledReason: channel.disabledReason ?? "",
    disabledAt: channel.disabledAt ?? undefined,
    signatureScheme:
      channel.signatureScheme === null
        ? alerts.SignatureScheme.SIGNATURE_SCHEME_UNSPECIFIED
        : signatureSchemeEnum.toProto(channel.signatureScheme),
    signingSecretRotatedAt: channel.signingSecretRotatedAt ?? undefined,
    previousSigningSecretValidUntil: channel.previousSigningSecretValidUntil ?? undefined,
  };
}

/** Unknown severities become text that validation names ("unknown(9)"). */
export function routesFromProto(routes: alerts.NotificationRoute[]): RouteInput[] {
  return routes.map((route) => ({
    severities: route.severities.map((value) => severityEnum.fromProto(value) ?? `unknown(${value})`),
    channelIds: route.channelIds,
  }));
}

export function policyToProto(policy: PolicyView): alerts.NotificationPolicy {
  return {
    teamId: policy.teamId,
    routes: policy.routes.map((route) => ({
      severities: route.severities.map(severityEnum.toProto),
      channelIds: route.channelIds,
    })),
    updatedAt: policy.updatedAt,
  };
}

export function deliveryToProto(delivery: DeliveryView): alerts.Delivery {
  return {
    id: delivery.id,
    alertId: delivery.alertId ?? "",
    channelId: delivery.channelId,
    channelKind: channelKindEnum.toProto(delivery.channelKind),
    channelName: delivery.channelName,
    event: deliveryEventEnum.toProto(delivery.eventType),
    eventId: delivery.eventId,
    status: deliveryStatusEnum.toProto(delivery.status),
    attempts: delivery.attempts,
    maxAttempts: delivery.maxAttempts,
    nextAttemptAt: delivery.nextAttemptAt ?? undefined,
    lastAttemptAt: delivery.lastAttemptAt ?? undefined,
    lastStatusCode: delivery.lastStatusCode ?? 0,
    lastError: delivery.lastError ?? "",
    deliveredAt: delivery.deliveredAt ?? undefined,
    createdAt: delivery.createdAt,
    teamId: delivery.teamId,
  };
}
