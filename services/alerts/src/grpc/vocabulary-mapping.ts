import { alerts } from "@pulsegate/proto";
import type { AlertSource, AlertStatus } from "../alerts/alert-row.ts";
import type { ChannelKind } from "../notifications/channel.ts";
import type { DeliveryEventType, DeliveryStatus } from "../notifications/delivery-store.ts";
import type { Severity } from "../severity.ts";

// The alerts service's only mapping between its domain words and the proto enums. Each table is
// keyed by the domain's list (a new domain value fails to compile here) and must name every proto
// value but UNSPECIFIED (a new proto value fails to compile at `Complete`).

/** Compiles only when `Table` names every value of the proto enum `P` but UNSPECIFIED (0). */
type Complete<P extends number, Table extends Record<string, P>> = [Exclude<P, Table[keyof Table] | 0 | -1>] extends [
  never,
]
  ? Table
  : never;

function reverse<N extends string, P extends number>(table: Record<N, P>): (value: number) => N | undefined {
  const names = new Map<number, N>(Object.entries(table).map(([name, value]) => [value as P, name as N]));
  return (value) => names.get(value);
}

const SEVERITY = {
  sev0: alerts.Severity.SEVERITY_SEV0,
  sev1: alerts.Severity.SEVERITY_SEV1,
  sev2: alerts.Severity.SEVERITY_SEV2,
  sev3: alerts.Severity.SEVERITY_SEV3,
  sev4: alerts.Severity.SEVERITY_SEV4,
} as const satisfies Record<Severity, alerts.Severity>;

const ALERT_STATUS = {
  open: alerts.AlertStatus.ALERT_STATUS_OPEN,
  acknowledged: alerts.AlertStatus.ALERT_STATUS_ACKNOWLEDGED,
  resolved: alerts.AlertStatus.ALERT_STATUS_RESOLVED,
} as const satisfies Record<AlertStatus, alerts.AlertStatus>;

const ALERT_SOURCE = {
  webhook: alerts.AlertSource.ALERT_SOURCE_WEBHOOK,
  monitor: alerts.AlertSource.ALERT_SOURCE_MONITOR,
} as const satisfies Record<AlertSource, alerts.AlertSource>;

const CHANNEL_KIND = {
  slack: alerts.ChannelKind.CHANNEL_KIND_SLACK,
  webhook: alerts.ChannelKind.CHANNEL_KIND_WEBHOOK,
  pagerduty: alerts.ChannelKind.CHANNEL_KIND_PAGERDUTY,
  opsgenie: alerts.ChannelKind.CHANNEL_KIND_OPSGENIE,
  email: alerts.ChannelKind.CHANNEL_KIND_EMAIL,
} as const satisfies Record<ChannelKind, alerts.ChannelKind>;

const DELIVERY_STATUS = {
  pending: alerts.DeliveryStatus.DELIVERY_STATUS_PENDING,
  delivered: alerts.DeliveryStatus.DELIVERY_STATUS_DELIVERED,
  failed: alerts.DeliveryStatus.DELIVERY_STATUS_FAILED,
  cancelled: alerts.DeliveryStatus.DELIVERY_STATUS_CANCELLED,
} as const satisfies Record<DeliveryStatus, alerts.DeliveryStatus>;

const DELIVERY_EVENT = {
  "alert.created": alerts.DeliveryEvent.DELIVERY_EVENT_ALERT_CREATED,
  "alert.reopened": alerts.DeliveryEvent.DELIVERY_EVENT_ALERT_REOPENED,
  "alert.resolved": alerts.DeliveryEvent.DELIVERY_EVENT_ALERT_RESOLVED,
  "alert.reminder": alerts.DeliveryEvent.DELIVERY_EVENT_ALERT_REMINDER,
  "channel.disabled": alerts.DeliveryEvent.DELIVERY_EVENT_CHANNEL_DISABLED,
} as const satisfies Record<DeliveryEventType, alerts.DeliveryEvent>;

export const severityToProto = (value: Severity): alerts.Severity => SEVERITY[value];
export const alertStatusToProto = (value: AlertStatus): alerts.AlertStatus => ALERT_STATUS[value];
export const sourceToProto = (value: AlertSource): alerts.AlertSource => ALERT_SOURCE[value];
export const channelKindToProto = (value: ChannelKind): alerts.ChannelKind => CHANNEL_KIND[value];
export const deliveryStatusToProto = (value: DeliveryStatus): alerts.DeliveryStatus => DELIVERY_STATUS[value];
export const deliveryEventToProto = (value: DeliveryEventType): alerts.DeliveryEvent => DELIVERY_EVENT[value];

// From proto: undefined for UNSPECIFIED and for values this build does not know; each caller
// decides what that means (a default, or a validation error).
export const severityFromProto = reverse<Severity, alerts.Severity>(
  SEVERITY satisfies Complete<alerts.Severity, typeof SEVERITY>,
);
export const alertStatusFromProto = reverse<AlertStatus, alerts.AlertStatus>(
  ALERT_STATUS satisfies Complete<alerts.AlertStatus, typeof ALERT_STATUS>,
);
export const sourceFromProto = reverse<AlertSource, alerts.AlertSource>(
  ALERT_SOURCE satisfies Complete<alerts.AlertSource, typeof ALERT_SOURCE>,
);
export const channelKindFromProto = reverse<ChannelKind, alerts.ChannelKind>(
  CHANNEL_KIND satisfies Complete<alerts.ChannelKind, typeof CHANNEL_KIND>,
);
export const deliveryStatusFromProto = reverse<DeliveryStatus, alerts.DeliveryStatus>(
  DELIVERY_STATUS satisfies Complete<alerts.DeliveryStatus, typeof DELIVERY_STATUS>,
);
export const deliveryEventFromProto = reverse<DeliveryEventType, alerts.DeliveryEvent>(
  DELIVERY_EVENT satisfies Complete<alerts.DeliveryEvent, typeof DELIVERY_EVENT>,
);
