import { alerts, monitors } from "@pulsegate/proto";
import type { PingStatus, Severity } from "./validation/index.ts";

// The gateway's only mapping between the proto enums and the words of its JSON (the API's,
// the dashboard's). Each table is keyed by the JSON word (a new word fails to compile here) and
// must name every proto value but UNSPECIFIED (a new proto value fails to compile at `Complete`).

/** Compiles only when `Table` names every value of the proto enum `P` but UNSPECIFIED (0). */
type Complete<P extends number, Table extends Record<string, P>> = [Exclude<P, Table[keyof Table] | 0 | -1>] extends [
  never,
]
  ? Table
  : never;

/** JSON answers carry null for UNSPECIFIED and for values this build does not know. */
function toJson<N extends string, P extends number>(table: Record<N, P>): (value: number) => N | null {
  const names = new Map<number, N>(Object.entries(table).map(([name, value]) => [value as P, name as N]));
  return (value) => names.get(value) ?? null;
}

export const ALERT_STATUSES = ["open", "acknowledged", "resolved"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
export type MonitorStatus = "idle" | "up" | "down" | "paused";
export type ChannelKind = "slack" | "webhook" | "pagerduty" | "opsgenie" | "email";
export type DeliveryStatus = "pending" | "delivered" | "failed" | "cancelled";
export type DeliveryEvent =
  | "alert.created"
  | "alert.reopened"
  | "alert.resolved"
  | "alert.reminder"
  | "channel.disabled";

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

const PING_STATUS = {
  up: monitors.PingStatus.PING_STATUS_UP,
  down: monitors.PingStatus.PING_STATUS_DOWN,
  start: monitors.PingStatus.PING_STATUS_START,
} as const satisfies Record<PingStatus, monitors.PingStatus>;

const MONITOR_STATUS = {
  idle: monitors.MonitorStatus.MONITOR_STATUS_IDLE,
  up: monitors.MonitorStatus.MONITOR_STATUS_UP,
  down: monitors.MonitorStatus.MONITOR_STATUS_DOWN,
  paused: monitors.MonitorStatus.MONITOR_STATUS_PAUSED,
} as const satisfies Record<MonitorStatus, monitors.MonitorStatus>;

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
} as const satisfies Record<DeliveryEvent, alerts.DeliveryEvent>;

export const CHANNEL_KINDS = Object.keys(CHANNEL_KIND) as ChannelKind[];
export const DELIVERY_EVENTS = Object.keys(DELIVERY_EVENT) as DeliveryEvent[];

// JSON → proto. An absent severity or status is UNSPECIFIED ("the default", "every status").
export const severityToProto = (value: Severity | undefined): alerts.Severity =>
  value === undefined ? alerts.Severity.SEVERITY_UNSPECIFIED : SEVERITY[value];
export const alertStatusToProto = (value: AlertStatus | undefined): alerts.AlertStatus =>
  value === undefined ? alerts.AlertStatus.ALERT_STATUS_UNSPECIFIED : ALERT_STATUS[value];
export const pingStatusToProto = (value: PingStatus): monitors.PingStatus => PING_STATUS[value];
export const channelKindToProto = (value: ChannelKind): alerts.ChannelKind => CHANNEL_KIND[value];

// proto → JSON: null for UNSPECIFIED and unknown values.
export const severityJson = toJson<Severity, alerts.Severity>(
  SEVERITY satisfies Complete<alerts.Severity, typeof SEVERITY>,
);
export const alertStatusJson = toJson<AlertStatus, alerts.AlertStatus>(
  ALERT_STATUS satisfies Complete<alerts.AlertStatus, typeof ALERT_STATUS>,
);
export const pingStatusJson = toJson<PingStatus, monitors.PingStatus>(
  PING_STATUS satisfies Complete<monitors.PingStatus, typeof PING_STATUS>,
);
export const monitorStatusJson = toJson<MonitorStatus, monitors.MonitorStatus>(
  MONITOR_STATUS satisfies Complete<monitors.MonitorStatus, typeof MONITOR_STATUS>,
);
export const channelKindJson = toJson<ChannelKind, alerts.ChannelKind>(
  CHANNEL_KIND satisfies Complete<alerts.ChannelKind, typeof CHANNEL_KIND>,
);
export const deliveryStatusJson = toJson<DeliveryStatus, alerts.DeliveryStatus>(
  DELIVERY_STATUS satisfies Complete<alerts.DeliveryStatus, typeof DELIVERY_STATUS>,
);
export const deliveryEventJson = toJson<DeliveryEvent, alerts.DeliveryEvent>(
  DELIVERY_EVENT satisfies Complete<alerts.DeliveryEvent, typeof DELIVERY_EVENT>,
);
