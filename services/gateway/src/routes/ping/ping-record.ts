import { secondsUntilNextQuotaMonth } from "@pulsegate/contract/quota";
import { type auth, monitors } from "@pulsegate/proto";
import { errors } from "../../errors.ts";
import { monitorStatusJson, pingStatusToProto } from "../../json-vocabulary.ts";
import { DRY_RUN_MESSAGE } from "../../pipeline/dry-run.ts";
import { idempotencyKeyReused } from "../../pipeline/idempotency-key.ts";
import type { PingBody } from "../../validation/index.ts";
import { pingErrors } from "./ping-errors.ts";

/** Spec §4.2 (exact). */
export const PING_RECEIVED = "Ping received";

/** The RecordPing item for a validated ping to `monitor`. */
export function toRecordPingItem(
  monitor: Pick<monitors.Monitor, "id" | "teamId">,
  access: auth.TeamAccess,
  body: PingBody,
  method: string,
  receivedAt: Date,
  idempotency: Pick<monitors.RecordPingItem, "idempotencyKey" | "requestFingerprint"> = {
    idempotencyKey: "",
    requestFingerprint: "",
  },
): monitors.RecordPingItem {
  return {
    monitorId: monitor.id,
    teamId: monitor.teamId,
    status: pingStatusToProto(body.status),
    reason: body.reason ?? "",
    groupKey: body.group_key ?? "",
    metadataJson: body.metadata === undefined ? "" : JSON.stringify(body.metadata),
    method,
    receivedAt,
    heartbeatQuotaMonthly: access.heartbeatQuotaMonthly,
    alertQuotaMonthly: access.alertQuotaMonthly,
    ...idempotency,
  };
}

/**
 * Step 7: the 200 answer for a recorded (or spooled) ping, else the error.
 * A spooled ping whose monitor the service could not describe is answered
 * from the monitor resolved at step 2, with this ping applied.
 */
export function pingResponse(
  result: monitors.RecordPingResult | undefined,
  resolved: Pick<monitors.Monitor, "name">,
  body: PingBody,
  now: Date = new Date(),
): {
  message: string;
  monitor: { name: string; status: string | null; monitoringActive: boolean };
  pingStatus: string;
} {
  switch (result?.outcome) {
    case monitors.RecordOutcome.RECORD_OUTCOME_RECORDED:
    case monitors.RecordOutcome.RECORD_OUTCOME_SPOOLED: {
      const monitor = result.monitor;
      return {
        message: PING_RECEIVED,
        monitor: monitor
          ? {
              name: monitor.name,
              status: monitorStatusJson(monitor.status),
              monitoringActive: monitor.monitoringActive,
            }
          : // A start ping leaves the status as it was, which is not known here.
            { name: resolved.name, status: body.status === "start" ? null : body.status, monitoringActive: true },
        pingStatus: body.status,
      };
    }
    case monitors.RecordOutcome.RECORD_OUTCOME_QUOTA_EXHAUSTED:
      throw pingErrors.heartbeatQuotaExhausted(secondsUntilNextQuotaMonth(now));
    case monitors.RecordOutcome.RECORD_OUTCOME_MONITOR_NOT_FOUND:
    case monitors.RecordOutcome.RECORD_OUTCOME_PAUSED:
      throw errors.monitorNotFound();
    case monitors.RecordOutcome.RECORD_OUTCOME_INVALID:
      throw errors.invalidRequest(result.violations);
    case monitors.RecordOutcome.RECORD_OUTCOME_NOT_STORED:
      throw errors.serviceUnavailable();
    case monitors.RecordOutcome.RECORD_OUTCOME_IDEMPOTENCY_KEY_REUSED:
      throw idempotencyKeyReused();
    default:
      throw new Error(`RecordPing returned outcome ${String(result?.outcome)}`);
  }
}

/**
 * `?dryRun=true`: what the ping would do, written nowhere: the monitor after it,
 * the incident it would raise or resolve (and its group key), the reason the
 * monitor would be down with. A quota that would refuse it says so (outcome).
 */
export function dryRunPingResponse(
  result: monitors.PreviewPingResult | undefined,
  resolved: Pick<monitors.Monitor, "name">,
  body: PingBody,
): Record<string, unknown> {
  switch (result?.outcome) {
    case monitors.RecordOutcome.RECORD_OUTCOME_RECORDED:
    case monitors.RecordOutcome.RECORD_OUTCOME_QUOTA_EXHAUSTED: {
      const recorded = result.outcome === monitors.RecordOutcome.RECORD_OUTCOME_RECORDED;
      const monitor = result.monitor;
      return {
        dryRun: true,
        outcome: recorded ? "recorded" : "quota_exhausted",
        message: DRY_RUN_MESSAGE,
        monitor: monitor
          ? {
              name: monitor.name,
              status: monitorStatusJson(monitor.status),
              monitoringActive: monitor.monitoringActive,
            }
          : { name: resolved.name, status: null, monitoringActive: null },
        pingStatus: body.status,
        incident: result.incident === "" ? null : result.incident,
        groupKey: result.groupKey === "" ? null : result.groupKey,
        reason: result.reason === "" ? null : result.reason,
      };
    }
    case monitors.RecordOutcome.RECORD_OUTCOME_MONITOR_NOT_FOUND:
    case monitors.RecordOutcome.RECORD_OUTCOME_PAUSED:
      throw errors.monitorNotFound();
    case monitors.RecordOutcome.RECORD_OUTCOME_INVALID:
      throw errors.invalidRequest(result.violations);
    default:
      throw new Error(`PreviewPings returned outcome ${String(result?.outcome)}`);
  }
}
