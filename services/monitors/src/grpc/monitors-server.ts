import { DomainError } from "@pulsegate/errors";
import { type ServiceBinding, unary } from "@pulsegate/grpc";
import type { Logger } from "@pulsegate/logger";
import { alerts, monitors } from "@pulsegate/proto";
import { isTransientError } from "@pulsegate/transient-error";
import type { Severity } from "@pulsegate/vocabulary";
import { severityEnum } from "@pulsegate/vocabulary/proto";
import { monitorsErrors } from "../errors.ts";
import type { MonitorService } from "../monitors/monitor-service.ts";
import type { PingRecorder, RecordInput } from "../pings/record-pings.ts";
import type { SpoolStatus } from "../spool/spool-durability.ts";
import {
  monitorToProto,
  pingStatusFromProto,
  pingToProto,
  previewResultToProto,
  recordResultToProto,
  spoolStatusToProto,
} from "./proto-mapping.ts";

const MAX_BATCH = 500;

/** A database that cannot be reached is UNAVAILABLE (503 with Retry-After at the gateway), not INTERNAL. */
function guard<Req, Res>(handler: (request: Req) => Promise<Res>): (request: Req) => Promise<Res> {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      if (!(error instanceof DomainError) && isTransientError(error)) throw monitorsErrors.databaseUnavailable(error);
      throw error;
    }
  };
}

/** Translates monitors.v1 messages to the domain and back; no rules live here. */
export function monitorsServiceBinding(
  log: Logger,
  service: MonitorService,
  recorder: PingRecorder,
  spoolStatus: () => Promise<SpoolStatus>,
): ServiceBinding {
  const implementation: monitors.MonitorsServiceServer = {
    createMonitor: unary(
      log,
      guard(async (request: monitors.CreateMonitorRequest) => {
        const monitor = await service.create(request.teamId, {
          name: request.name,
          intervalSeconds: request.intervalSeconds,
          graceSeconds: request.graceSeconds,
          severity: incidentSeverityFromProto(request.incidentSeverity),
          reopenWindowSeconds: request.reopenWindowSeconds,
          schedule: request.schedule,
          timezone: request.timezone,
          maxDurationSeconds: request.maxDurationSeconds,
          repeatIntervalSeconds: request.repeatIntervalSeconds,
          requireTimestamp: request.requireTimestamp,
        });
        return { monitor: monitorToProto(monitor) };
      }),
    ),
    getMonitor: unary(
      log,
      guard(async (request: monitors.GetMonitorRequest) => ({
        monitor: monitorToProto(await service.get(request.id)),
      })),
    ),
    listMonitors: unary(
      log,
      guard(async (request: monitors.ListMonitorsRequest) => ({
        monitors: (await service.list(request.teamId)).map(monitorToProto),
      })),
    ),
    pauseMonitor: unary(
      log,
      guard(async (request: monitors.PauseMonitorRequest) => ({
        monitor: monitorToProto(await service.pause(request.id)),
      })),
    ),
    resumeMonitor: unary(
      log,
      guard(async (request: monitors.ResumeMonitorRequest) => ({
        monitor: monitorToProto(await service.resume(request.id)),
      })),
    ),
    listPings: unary(
      log,
      guard(async (request: monitors.ListPingsRequest) => {
        const page = await service.pings(request.monitorId, request.cursor, request.limit);
        return { pings: page.pings.map(pingToProto), nextCursor: page.nextCursor };
      }),
    ),
    resolveMonitor: unary(
      log,
      guard(async (request: monitors.ResolveMonitorRequest) => {
        const monitor = await service.resolve(request.pingUrl);
        return { monitor: monitor ? monitorToProto(monitor) : undefined };
      }),
    ),
    resolveMonitors: unary(
      log,
      guard(async (request: monitors.ResolveMonitorsRequest) => {
        if (request.pingUrls.length > MAX_BATCH) {
          throw monitorsErrors.invalid([{ field: "pingUrls", message: `At most ${MAX_BATCH} per call.` }]);
        }
        const found = await service.resolveMany(request.pingUrls);
        return { monitors: found.map((monitor) => ({ monitor: monitor ? monitorToProto(monitor) : undefined })) };
      }),
    ),
    recordPing: unary(
      log,
      guard(async (request: monitors.RecordPingRequest) => {
        if (request.items.length > MAX_BATCH) {
          throw monitorsErrors.invalid([{ field: "items", message: `At most ${MAX_BATCH} items per call.` }]);
        }
        const inputs = recordInputsFromProto(request.items);
        return { results: (await recorder.record(inputs)).map(recordResultToProto) };
      }),
    ),
    describeSpool: unary(log, async () => spoolStatusToProto(await spoolStatus())),
    previewPings: unary(
      log,
      guard(async (request: monitors.PreviewPingsRequest) => {
        if (request.items.length > MAX_BATCH) {
          throw monitorsErrors.invalid([{ field: "items", message: `At most ${MAX_BATCH} items per call.` }]);
        }
        return { results: (await recorder.preview(recordInputsFromProto(request.items))).map(previewResultToProto) };
      }),
    ),
    resolveBadge: unary(
      log,
      guard(async (request: monitors.ResolveBadgeRequest) => {
        const monitor = await service.resolveBadge(request.badgeToken);
        return { monitor: monitor ? monitorToProto(monitor) : undefined };
      }),
    ),
    getHeartbeatUsage: unary(
      log,
      guard((request: monitors.GetHeartbeatUsageRequest) => service.heartbeatUsage(request.teamId)),
    ),
  };
  return { name: "monitors.v1.MonitorsService", definition: monitors.MonitorsServiceService, implementation };
}

/** UNSPECIFIED: the default severity. A value this build does not know is refused. */
function incidentSeverityFromProto(value: alerts.Severity): Severity | undefined {
  if (value === alerts.Severity.SEVERITY_UNSPECIFIED) return undefined;
  const severity = severityEnum.fromProto(value);
  if (!severity) throw monitorsErrors.invalid([{ field: "severity", message: "severity is not known." }]);
  return severity;
}

function recordInputsFromProto(items: monitors.RecordPingItem[]): RecordInput[] {
  return items.map((item, index): RecordInput => {
    const status = pingStatusFromProto(item.status);
    if (!status) throw monitorsErrors.invalid([{ field: `items[${index}].status`, message: "status is not known." }]);
    return {
      monitorId: item.monitorId,
      teamId: item.teamId,
      status,
      reason: item.reason === "" ? null : item.reason,
      groupKey: item.groupKey === "" ? null : item.groupKey,
      metadataJson: item.metadataJson === "" ? null : item.metadataJson,
      method: item.method || "POST",
      receivedAt: item.receivedAt ?? null,
      heartbeatQuotaMonthly: item.heartbeatQuotaMonthly,
      alertQuotaMonthly: item.alertQuotaMonthly,
    };
  });
}
