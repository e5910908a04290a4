import { alerts } from "@pulsegate/proto";
import {
  channelKindJson,
  deliveryEventJson,
  deliveryStatusJson,
  severityJson,
  signatureSchemeJson,
} from "../../json-vocabulary.ts";
import { iso, orNull } from "./absent-as-null.ts";

/** JSON shapes of channels, policies and deliveries (camelCase; absent values are null). */

/**
 * A webhook channel's scheme; null for the other kinds. An alerts service of a release before
 * schemes (a rolling upgrade) answers none for a webhook channel: it signs as pulsegate.
 */
function webhookChannelScheme(channel: alerts.Channel) {
  if (channel.kind !== alerts.ChannelKind.CHANNEL_KIND_WEBHOOK) return null;
  return signatureSchemeJson(channel.signatureScheme) ?? "pulsegate";
}

/** The URL is a secret: only its masked form ever leaves the alerts service. */
export function channelJson(channel: alerts.Channel) {
  return {
    id: channel.id,
    teamId: channel.teamId,
    kind: channelKindJson(channel.kind),
    name: channel.name,
    maskedUrl: channel.maskedUrl,
    enabled: channel.enabled,
    disabledReason: orNull(channel.disabledReason),
    disabledAt: iso(channel.disabledAt),
    signatureScheme: webhookChannelScheme(channel),
    signingSecretRotatedAt: iso(channel.signingSecretRotatedAt),
    previousSigningSecretValidUntil: iso(channel.previousSigningSecretValidUntil),
    createdAt: iso(channel.createdAt),
    updatedAt: iso(channel.updatedAt),
  };
}

export function policyJson(policy: alerts.NotificationPolicy) {
  return {
    teamId: policy.teamId,
    routes: policy.routes.map((route) => ({
      severities: route.severities.map(severityJson),
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
    channelKind: channelKindJson(delivery.channelKind),
    channelName: delivery.channelName,
    eventType: deliveryEventJson(delivery.event),
    eventId: delivery.eventId,
    status: deliveryStatusJson(delivery.status),
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
