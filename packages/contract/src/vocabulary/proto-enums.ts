import { alerts, monitors } from "@pulsegate/proto";
import type {
  AlertSource,
  AlertStatus,
  ChannelKind,
  DeliveryEvent,
  DeliveryStatus,
  MonitorStatus,
  PingStatus,
  Severity,
  SignatureScheme,
  WebhookSource,
} from "./words.ts";

// The only mapping between Pulsegate's words (words.ts) and the proto enums, used by every gRPC
// edge and by the gateway. Each table is keyed by a word list, so a new word fails to compile
// here; and it must name every proto value but UNSPECIFIED, so a new proto value fails too.

/** `Table` when it names every value of the proto enum `P` but UNSPECIFIED (0); never otherwise. */
type Complete<P extends number, Table extends Record<string, P>> = [Exclude<P, Table[keyof Table] | 0 | -1>] extends [
  never,
]
  ? Table
  : never;

export type EnumMapping<W extends string, P extends number> = {
  toProto(word: W): P;
  /** Undefined for UNSPECIFIED and for values this build does not know: the caller decides what that means. */
  fromProto(value: number): W | undefined;
};

function mapping<W extends string, P extends number>(table: Record<W, P>): EnumMapping<W, P> {
  const words = new Map<number, W>(Object.entries(table).map(([word, value]) => [value as P, word as W]));
  return { toProto: (word) => table[word], fromProto: (value) => words.get(value) };
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

const WEBHOOK_SOURCE = {
  signed: alerts.WebhookSource.WEBHOOK_SOURCE_SIGNED,
  alertmanager: alerts.WebhookSource.WEBHOOK_SOURCE_ALERTMANAGER,
} as const satisfies Record<WebhookSource, alerts.WebhookSource>;

const MONITOR_STATUS = {
  idle: monitors.MonitorStatus.MONITOR_STATUS_IDLE,
  up: monitors.MonitorStatus.MONITOR_STATUS_UP,
  down: monitors.MonitorStatus.MONITOR_STATUS_DOWN,
  paused: monitors.MonitorStatus.MONITOR_STATUS_PAUSED,
} as const satisfies Record<MonitorStatus, monitors.MonitorStatus>;

const PING_STATUS = {
  up: monitors.PingStatus.PING_STATUS_UP,
  down: monitors.PingStatus.PING_STATUS_DOWN,
  start: monitors.PingStatus.PING_STATUS_START,
} as const satisfies Record<PingStatus, monitors.PingStatus>;

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
  "alert.acknowledged": alerts.DeliveryEvent.DELIVERY_EVENT_ALERT_ACKNOWLEDGED,
  "alert.resolved": alerts.DeliveryEvent.DELIVERY_EVENT_ALERT_RESOLVED,
  "alert.reminder": alerts.DeliveryEvent.DELIVERY_EVENT_ALERT_REMINDER,
  "channel.disabled": alerts.DeliveryEvent.DELIVERY_EVENT_CHANNEL_DISABLED,
} as const satisfies Record<DeliveryEvent, alerts.DeliveryEvent>;

const SIGNATURE_SCHEME = {
  pulsegate: alerts.SignatureScheme.SIGNATURE_SCHEME_PULSEGATE,
  "standard-webhooks": alerts.SignatureScheme.SIGNATURE_SCHEME_STANDARD_WEBHOOKS,
} as const satisfies Record<SignatureScheme, alerts.SignatureScheme>;

export const severityEnum = mapping<Severity, alerts.Severity>(
  SEVERITY satisfies Complete<alerts.Severity, typeof SEVERITY>,
);
export const alertStatusEnum = mapping<AlertStatus, alerts.AlertStatus>(
  ALERT_STATUS satisfies Complete<alerts.AlertStatus, typeof ALERT_STATUS>,
);
export const alertSourceEnum = mapping<AlertSource, alerts.AlertSource>(
  ALERT_SOURCE satisfies Complete<alerts.AlertSource, typeof ALERT_SOURCE>,
);
export const webhookSourceEnum = mapping<WebhookSource, alerts.WebhookSource>(
  WEBHOOK_SOURCE satisfies Complete<alerts.WebhookSource, typeof WEBHOOK_SOURCE>,
);
export const monitorStatusEnum = mapping<MonitorStatus, monitors.MonitorStatus>(
  MONITOR_STATUS satisfies Complete<monitors.MonitorStatus, typeof MONITOR_STATUS>,
);
export const pingStatusEnum = mapping<PingStatus, monitors.PingStatus>(
  PING_STATUS satisfies Complete<monitors.PingStatus, typeof PING_STATUS>,
);
export const channelKindEnum = mapping<ChannelKind, alerts.ChannelKind>(
  CHANNEL_KIND satisfies Complete<alerts.ChannelKind, typeof CHANNEL_KIND>,
);
export const deliveryStatusEnum = mapping<DeliveryStatus, alerts.DeliveryStatus>(
  DELIVERY_STATUS satisfies Complete<alerts.DeliveryStatus, typeof DELIVERY_STATUS>,
);
export const deliveryEventEnum = mapping<DeliveryEvent, alerts.DeliveryEvent>(
  DELIVERY_EVENT satisfies Complete<alerts.DeliveryEvent, typeof DELIVERY_EVENT>,
);
export const signatureSchemeEnum = mapping<SignatureScheme, alerts.SignatureScheme>(
  SIGNATURE_SCHEME satisfies Complete<alerts.SignatureScheme, typeof SIGNATURE_SCHEME>,
);
