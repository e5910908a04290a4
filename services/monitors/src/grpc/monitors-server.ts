import type { Severity } from "@pulsegate/contract/vocabulary";
import { severityEnum, signatureSchemeEnum } from "@pulsegate/contract/vocabulary/proto";
import { type ServiceBinding, type UnaryHandlers, unaryService } from "@pulsegate/grpc";
import { alerts, monitors } from "@pulsegate/proto";
import type { Logger } from "@pulsegate/runtime/logger";
import { monitorsErrors } from "../errors.ts";
import type { MonitorView } from "../monitors/monitor-row.ts";
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

/** The answer that carries one monitor, or none. */
function monitorReply(monitor: MonitorView | null): { monitor: monitors.Monitor | undefined } {
  return { monitor: monitor ? monitorToProto(monitor) : undefined };
}

/** Translates monitors.v1 messages to the domain and back; no rules live here. */
export function monitorsServiceBinding(
  log: Logger,
  service: MonitorService,
  recorder: PingRecorder,
  spoolStatus: () => Promise<SpoolStatus>,
): ServiceBinding {
  const handlers: UnaryHandlers<monitors.MonitorsServiceServer> = {
    createMonitor: async (request: monitors.CreateMonitorRequest) => {
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
        signatureScheme: signatureSchemeFromProto(request.signatureScheme),
      });
      return monitorReply(monitor);
    },
    getMonitor: async (request: monitors.GetMonitorRequest) => monitorReply(await service.get(request.id)),
    listMonitors: async (request: monitors.ListMonitorsRequest) => ({
      monitors: (await service.list(request.teamId)).map(monitorToProto),
    }),
    pauseMonitor: async (request: monitors.PauseMonitorRequest) => monitorReply(await service.pause(request.id)),
    resumeMonitor: async (request: monitors.ResumeMonitorRequest) => monitorReply(await service.resume(request.id)),
    listPings: async (request: monitors.ListPingsRequest) => {
      const page = await service.pings(request.monitorId, request.cursor, request.limit);
      return { pings: page.pings.map(pingToProto), nextCursor: page.nextCursor };
    },
    lookupMonitor: async (request: monitors.LookupMonitorRequest) =>
      monitorReply(await service.lookup(request.pingUrl)),
    lookupMonitors: async (request: monitors.LookupMonitorsRequest) => ({
      monitors: (await service.lookupMany(request.pingUrls)).map(monitorReply),
    }),
    // The deprecated names of the look-ups, for a previous release's gateway. Remove after the next release.
    resolveMonitor: (request, call) => handlers.lookupMonitor(request, call),
    resolveMonitors: (request, call) => handlers.lookupMonitors(request, call),
    resolveBadge: (request, call) => handlers.lookupBadge(request, call),
    recordPing: async (request: monitors.RecordPingRequest) => ({
      results: (await recorder.record(recordInputsFromProto(request.items))).map(recordResultToProto),
    }),
    describeSpool: async () => spoolStatusToProto(await spoolStatus()),
    previewPings: async (request: monitors.PreviewPingsRequest) => ({
      results: (await recorder.preview(recordInputsFromProto(request.items))).map(previewResultToProto),
    }),
    lookupBadge: async (request: monitors.LookupBadgeRequest) =>
      monitorReply(await service.lookupBadge(request.badgeToken)),
    getHeartbeatUsage: async (request: monitors.GetHeartbeatUsageRequest) => service.heartbeatUsage(request.teamId),
    updateMonitor: async (request: monitors.UpdateMonitorRequest) =>
      monitorReply(
        await service.update(request.id, {
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
        }),
      ),
    deleteMonitor: async (request: monitors.DeleteMonitorRequest) => monitorReply(await service.delete(request.id)),
    deleteTeamData: async (request: monitors.DeleteTeamDataRequest) => {
      await service.deleteTeamData(request.teamId);
      return {};
    },
  };
  const batch = { field: "items", noun: "items" };
  const implementation = unaryService<monitors.MonitorsServiceServer>(log, handlers, {
    lookupMonitors: { field: "pingUrls" },
    resolveMonitors: { field: "pingUrls" },
    recordPing: batch,
    previewPings: batch,
  });
  return { name: "monitors.v1.MonitorsService", definition: monitors.MonitorsServiceService, implementation };
}

/** UNSPECIFIED: the default severity. A value this build does not know is refused. */
function incidentSeverityFromProto(value: alerts.Severity): Severity | undefined {
  if (value === alerts.Severity.SEVERITY_UNSPECIFIED) return undefined;
  const severity = severityEnum.fromProto(value);
  if (!severity) throw monitorsErrors.invalid([{ field: "severity", message: "severity is not known." }]);
  return severity;
}

/** UNSPECIFIED: the default (pulsegate). A value this build does not know is named, so it is refused. */
function signatureSchemeFromProto(value: alerts.SignatureScheme): string | undefined {
  if (value === alerts.SignatureScheme.SIGNATURE_SCHEME_UNSPECIFIED) return undefined;
  return signatureSchemeEnum.fromProto(value) ?? `unknown(${value})`;
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
      idempotency: item.idempotencyKey
        ? { teamId: item.teamId, key: item.idempotencyKey, fingerprint: item.requestFingerprint }
        : null,
    };
  });
}
