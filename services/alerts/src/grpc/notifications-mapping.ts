import { alerts } from "@pulsegate/proto";
import type { ChannelKind, ChannelView } from "../notifications/channel.ts";
import type { RouteInput } from "../notifications/check-routes.ts";
import type { DeliveryStatus, DeliveryView } from "../notifications/delivery-store.ts";
import type { PolicyView } from "../notifications/policy-service.ts";
import { severityFromProto, severityToProto } from "./proto-mapping.ts";

const KIND_TO_PROTO: Record<ChannelKind, alerts.ChannelKind> = {
  slack: alerts.ChannelKind.CHANNEL_KIND_SLACK,
  webhook: alerts.ChannelKind.CHANNEL_KIND_WEBHOOK,
  pagerduty: alerts.ChannelKind.CHANNEL_KIND_PAGERDUTY,
  opsgenie: alerts.ChannelKind.CHANNEL_KIND_OPSGENIE,
  email: alerts.ChannelKind.CHANNEL_KIND_EMAIL,
};

const STATUS_TO_PROTO: Record<DeliveryStatus, alerts.DeliveryStatus> = {
  pending: alerts.DeliveryStatus.DELIVERY_STATUS_PENDING,
  delivered: alerts.DeliveryStatus.DELIVERY_STATUS_DELIVERED,
  failed: alerts.DeliveryStatus.DELIVERY_STATUS_FAILED,
  cancelled: alerts.DeliveryStatus.DELIVERY_STATUS_CANCELLED,
};

/** Undefined for UNSPECIFIED and unknown values, which validation reports. */
export function channelKindFromProto(value: alerts.ChannelKind): ChannelKind | undefined {
  return (Object.keys(KIND_TO_PROTO) as ChannelKind[]).find((kind) => KIND_TO_PROTO[kind] === value);
}

export function channelToProto(channel: ChannelView): alerts.Channel {
  return {
    id: channel.id,
    teamId: channel.teamId,
    kind: KIND_TO_PROTO[channel.kind],
    name: channel.name,
    maskedUrl: channel.maskedUrl,
    enabled: channel.enabled,
    createdAt: channel.createdAt,
    updatedAt: channel.updatedAt,
    disabledReason: channel.disabledReason ?? "",
    disabledAt: channel.disabledAt ?? undefined,
  };
}

/** Unknown severities become text that validation names ("unknown(9)"). */
export function routesFromProto(routes: alerts.NotificationRoute[]): RouteInput[] {
  return routes.map((route) => ({
    severities: route.severities.map((value) => severityFromProto(value) ?? `unknown(${value})`),
    channelIds: route.channelIds,
  }));
}

export function policyToProto(policy: PolicyView): alerts.NotificationPolicy {
  return {
    teamId: policy.teamId,
    routes: policy.routes.map((route) => ({
      severities: route.severities.map(severityToProto),
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
    channelKind: KIND_TO_PROTO[delivery.channelKind],
    channelName: delivery.channelName,
    eventType: delivery.eventType,
    eventId: delivery.eventId,
    status: STATUS_TO_PROTO[delivery.status],
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
