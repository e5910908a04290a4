import type { AlertStatus, Severity, SignatureScheme, WebhookSource } from "@pulsegate/contract/vocabulary";
import {
  alertStatusEnum,
  channelKindEnum,
  deliveryEventEnum,
  deliveryStatusEnum,
  type EnumMapping,
  monitorStatusEnum,
  pingStatusEnum,
  severityEnum,
  signatureSchemeEnum,
  webhookSourceEnum,
} from "@pulsegate/contract/vocabulary/proto";
import { alerts } from "@pulsegate/proto";

// The gateway's proto ⇄ JSON edge. The words and their proto values are @pulsegate/contract/vocabulary's;
// what is the gateway's own is how JSON shows what it does not know (null) and what absent means.

/** JSON answers carry null for UNSPECIFIED and for values this build does not know. */
const toJson =
  <W extends string, P extends number>(mapping: EnumMapping<W, P>) =>
  (value: number): W | null =>
    mapping.fromProto(value) ?? null;

export const severityJson = toJson(severityEnum);
export const alertStatusJson = toJson(alertStatusEnum);
export const pingStatusJson = toJson(pingStatusEnum);
export const monitorStatusJson = toJson(monitorStatusEnum);
export const channelKindJson = toJson(channelKindEnum);
export const deliveryStatusJson = toJson(deliveryStatusEnum);
export const deliveryEventJson = toJson(deliveryEventEnum);
export const signatureSchemeJson = toJson(signatureSchemeEnum);
export const webhookSourceJson = toJson(webhookSourceEnum);

/** An absent severity is UNSPECIFIED: the webhook's default (or the update leaves it unchanged). */
export const severityToProto = (value: Severity | undefined): alerts.Severity =>
  value === undefined ? alerts.Severity.SEVERITY_UNSPECIFIED : severityEnum.toProto(value);

/** An absent source is UNSPECIFIED: a signed webhook. */
export const webhookSourceToProto = (value: WebhookSource | undefined): alerts.WebhookSource =>
  value === undefined ? alerts.WebhookSource.WEBHOOK_SOURCE_UNSPECIFIED : webhookSourceEnum.toProto(value);

/** An absent status filter is UNSPECIFIED: every status. */
export const alertStatusToProto = (value: AlertStatus | undefined): alerts.AlertStatus =>
  value === undefined ? alerts.AlertStatus.ALERT_STATUS_UNSPECIFIED : alertStatusEnum.toProto(value);

export const pingStatusToProto = pingStatusEnum.toProto;
export const channelKindToProto = channelKindEnum.toProto;

/** An absent scheme is UNSPECIFIED: the default (pulsegate) on create, unchanged on update. */
export const signatureSchemeToProto = (value: SignatureScheme | undefined): alerts.SignatureScheme =>
  value === undefined ? alerts.SignatureScheme.SIGNATURE_SCHEME_UNSPECIFIED : signatureSchemeEnum.toProto(value);
