import type { TextProblem } from "@pulsegate/contract/text";
import type { PingStatus } from "@pulsegate/contract/vocabulary";
import {
  monitorStatusEnum,
  pingStatusEnum,
  severityEnum,
  signatureSchemeEnum,
} from "@pulsegate/contract/vocabulary/proto";
import { outcomeFields } from "@pulsegate/grpc";
import { monitors } from "@pulsegate/proto";
import type { MonitorView } from "../monitors/monitor-row.ts";
import type { PingView } from "../monitors/select-ping-page.ts";
import type { PingAnswer } from "../pings/ping-idempotency-keys.ts";
import type { PreviewResult } from "../pings/preview-pings.ts";
import type { RecordResult } from "../pings/record-pings.ts";
import type { SpoolStatus } from "../spool/spool-durability.ts";

/** A monitor never pinged has no last ping status: UNSPECIFIED. */
export function pingStatusToProto(status: PingStatus | null): monitors.PingStatus {
  return status === null ? monitors.PingStatus.PING_STATUS_UNSPECIFIED : pingStatusEnum.toProto(status);
}

/** UNSPECIFIED means up (a ping without a status reports up); undefined for a value this build does not know. */
export function pingStatusFromProto(status: monitors.PingStatus): PingStatus | undefined {
  return status === monitors.PingStatus.PING_STATUS_UNSPECIFIED ? "up" : pingStatusEnum.fromProto(status);
}

export function monitorToProto(monitor: MonitorView): monitors.Monitor {
  return {
    id: monitor.id,
    teamId: monitor.teamId,
    pingUrl: monitor.pingUrl,
    name: monitor.name,
    status: monitorStatusEnum.toProto(monitor.status),
    monitoringActive: monitor.monitoringActive,
    intervalSeconds: monitor.intervalSeconds,
    graceSeconds: monitor.graceSeconds,
    incidentSeverity: severityEnum.toProto(monitor.severity),
    reopenWindowSeconds: monitor.reopenWindowSeconds,
    lastPingAt: monitor.lastPingAt ?? undefined,
    lastPingStatus: pingStatusToProto(monitor.lastPingStatus),
    lastReason: monitor.lastReason ?? "",
    createdAt: monitor.createdAt,
    schedule: monitor.schedule?.expression ?? "",
    timezone: monitor.schedule?.timezone ?? "",
    nextDueAt: monitor.nextDueAt ?? undefined,
    runStartedAt: monitor.runStartedAt ?? undefined,
    lastDurationMs: monitor.lastDurationMs ?? undefined,
    maxDurationSeconds: monitor.maxDurationSeconds ?? 0,
    badgeToken: monitor.badgeToken,
    repeatIntervalSeconds: monitor.repeatIntervalSeconds ?? 0,
    requireTimestamp: monitor.requireTimestamp,
    signatureScheme: signatureSchemeEnum.toProto(monitor.signatureScheme),
  };
}

export function pingToProto(ping: PingView): monitors.Ping {
  return {
    id: ping.id,
    monitorId: ping.monitorId,
    status: pingStatusToProto(ping.status),
    reason: ping.reason ?? "",
    metadataJson: ping.metadata === null ? "" : JSON.stringify(ping.metadata),
    method: ping.method,
    receivedAt: ping.receivedAt,
    durationMs: ping.durationMs ?? undefined,
  };
}

const OUTCOME_TO_PROTO: Record<RecordResult["outcome"], monitors.RecordOutcome> = {
  recorded: monitors.RecordOutcome.RECORD_OUTCOME_RECORDED,
  spooled: monitors.RecordOutcome.RECORD_OUTCOME_SPOOLED,
  paused: monitors.RecordOutcome.RECORD_OUTCOME_PAUSED,
  quota_exhausted: monitors.RecordOutcome.RECORD_OUTCOME_QUOTA_EXHAUSTED,
  monitor_not_found: monitors.RecordOutcome.RECORD_OUTCOME_MONITOR_NOT_FOUND,
  invalid: monitors.RecordOutcome.RECORD_OUTCOME_INVALID,
  not_stored: monitors.RecordOutcome.RECORD_OUTCOME_NOT_STORED,
  // A repeat of a recorded ping's Idempotency-Key is answered as that ping was (`replayed` says so).
  replayed: monitors.RecordOutcome.RECORD_OUTCOME_RECORDED,
  idempotency_key_reused: monitors.RecordOutcome.RECORD_OUTCOME_IDEMPOTENCY_KEY_REUSED,
};

/** What a ping's answer needs of its monitor (the hot path encodes one per ping): the rest stays unset. */
function monitorSummaryToProto(monitor: PingAnswer): monitors.Monitor {
  return {
    ...EMPTY_MONITOR,
    id: monitor.id,
    teamId: monitor.teamId,
    name: monitor.name,
    status: monitorStatusEnum.toProto(monitor.status),
    monitoringActive: monitor.monitoringActive,
  };
}

const EMPTY_MONITOR: monitors.Monitor = monitors.Monitor.create();

/** What a result sends for the ping and violations its outcome has none of. */
const NO_PING = { pingId: "", violations: [] as monitors.FieldViolation[] };

export function recordResultToProto(result: RecordResult): monitors.RecordPingResult {
  const summary = result.outcome === "replayed" ? result.answer : "monitor" in result ? result.monitor : null;
  return {
    outcome: OUTCOME_TO_PROTO[result.outcome],
    monitor: summary ? monitorSummaryToProto(summary) : undefined,
    ...outcomeFields(result, NO_PING),
    replayed: result.outcome === "replayed",
  };
}

const DURABILITY_TO_PROTO: Record<SpoolStatus["durability"], monitors.SpoolDurability> = {
  none: monitors.SpoolDurability.SPOOL_DURABILITY_NONE,
  durable: monitors.SpoolDurability.SPOOL_DURABILITY_DURABLE,
  aof_not_fsynced: monitors.SpoolDurability.SPOOL_DURABILITY_AOF_NOT_FSYNCED,
  not_durable: monitors.SpoolDurability.SPOOL_DURABILITY_NOT_DURABLE,
  unknown: monitors.SpoolDurability.SPOOL_DURABILITY_UNKNOWN,
};

export function spoolStatusToProto(status: SpoolStatus): monitors.DescribeSpoolResponse {
  return { ...status, durability: DURABILITY_TO_PROTO[status.durability] };
}

export function previewResultToProto(
  result: PreviewResult | { outcome: "invalid"; violations: TextProblem[] },
): monitors.PreviewPingResult {
  return {
    outcome: OUTCOME_TO_PROTO[result.outcome],
    monitor: "monitor" in result ? monitorSummaryToProto(result.monitor) : undefined,
    incident: "incident" in result ? (result.incident ?? "") : "",
    groupKey: "groupKey" in result ? (result.groupKey ?? "") : "",
    reason: "reason" in result ? (result.reason ?? "") : "",
    violations: "violations" in result ? result.violations : [],
  };
}
