import { alerts } from "@pulsegate/proto";
import { severityFromProto } from "../../severity.ts";
import { iso, orNull } from "./absent-as-null.ts";

/** JSON shapes of channels, policies and deliveries (camelCase; absent values are null). */

const KINDS: ReadonlyMap<alerts.ChannelKind, string> = new Map([
  [alerts.ChannelKind.CHANNEL_KIND_SLACK, "slack"],
  [alerts.ChannelKind.CHANNEL_KIND_WEBHOOK, "webhook"],
  [alerts.ChannelKind.CHANNEL_KIND_PAGERDUTY, "pagerduty"],
  [alerts.ChannelKind.CHANNEL_KIND_OPSGENIE, "opsgenie"],
  [alerts.ChannelKind.CHANNEL_KIND_EMAIL, "email"],
]);

const DELIVERY_STATUSES: ReadonlyMap<number, string> = new Map([
  [alerts.DeliveryStatus.DELIVERY_STATUS_PENDING, "pending"],
  [alerts.DeliveryStatus.DELIVERY_STATUS_DELIVERED, "delivered"],
  [alerts.DeliveryStatus.DELIVERY_STATUS_FAILED, "failed"],
  [alerts.DeliveryStatus.DELIVERY_STATUS_CANCELLED, "cancelled"],
]);

export const channelKindToProto = (kind: string): alerts.ChannelKind =>
  [...KINDS].find(([, name]) => name === kind)?.[0] ?? alerts.ChannelKind.CHANNEL_KIND_UNSPECIFIED;

/** The URL is a secret: only its masked form ever leaves the alerts service. */
export function channelJson(channel: alerts.Channel) {
  return {
    id: channel.id,
    teamId: channel.teamId,
    kind: KINDS.get(channel.kind) ?? null,
    name: channel.name,
    maskedUrl: channel.maskedUrl,
    enabled: channel.enabled,
    disabledReason: orNull(channel.disabledReason),
    disabledAt: iso(channel.disabledAt),
    createdAt: iso(channel.createdAt),
    updatedAt: iso(channel.updatedAt),
  };
}

export function policyJson(policy: alerts.NotificationPolicy) {
  return {
    teamId: policy.teamId,
    routes: policy.routes.map((route) => ({
      severities: route.severities.map(severityFromProto),
      channelIds: route.channelIds,
    })),
    updatedAt: iso(policy.updatedAt),
  };
}

export function deliveryJson(delivery: alerts.Delivery) {
  return {
    id: delivery.id,
    alertId: delivery.alertId,
    channelId: delivery.channelId,
    channelKind: KINDS.get(delivery.channelKind) ?? null,
    channelName: delivery.channelName,
    eventType: delivery.eventType,
    eventId: delivery.eventId,
    status: DELIVERY_STATUSES.get(delivery.status) ?? null,
    attempts: delivery.attempts,
    maxAttempts: delivery.maxAttempts,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    lastAttemptAt: iso(delivery.lastAttemptAt),
    lastStatusCode: delivery.lastStatusCode === 0 ? null : delivery.lastStatusCode,
    lastError: orNull(delivery.lastError),
    deliveredAt: iso(delivery.deliveredAt),
    createdAt: iso(delivery.createdAt),
  };
}
