import { alerts, monitors } from "@pulsegate/proto";
import type { MonitorStatus, PingStatus } from "../monitors/monitor.entity.ts";
import type { Severity } from "../severity.ts";

// The monitors service's only mapping between its domain words and the proto enums. Each table is
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

export const severityToProto = (value: Severity): alerts.Severity => SEVERITY[value];
export const monitorStatusToProto = (value: MonitorStatus): monitors.MonitorStatus => MONITOR_STATUS[value];

/** A monitor that has never been pinged has no last ping status: UNSPECIFIED. */
export function pingStatusToProto(value: PingStatus | null): monitors.PingStatus {
  return value === null ? monitors.PingStatus.PING_STATUS_UNSPECIFIED : PING_STATUS[value];
}

/** Undefined for UNSPECIFIED (the default severity) and for values this build does not know. */
export const severityFromProto = reverse<Severity, alerts.Severity>(
  SEVERITY satisfies Complete<alerts.Severity, typeof SEVERITY>,
);
export const monitorStatusFromProto = reverse<MonitorStatus, monitors.MonitorStatus>(
  MONITOR_STATUS satisfies Complete<monitors.MonitorStatus, typeof MONITOR_STATUS>,
);
const pingStatusOf = reverse<PingStatus, monitors.PingStatus>(
  PING_STATUS satisfies Complete<monitors.PingStatus, typeof PING_STATUS>,
);

/** UNSPECIFIED means up (a ping without a status reports up); undefined for values this build does not know. */
export function pingStatusFromProto(value: monitors.PingStatus): PingStatus | undefined {
  return value === monitors.PingStatus.PING_STATUS_UNSPECIFIED ? "up" : pingStatusOf(value);
}
