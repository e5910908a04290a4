import type { MonitorView } from "../monitors/monitor-row.ts";
import { incidentGroupKey, incidentMetadata, incidentText } from "./incident-text.ts";

export type IncidentCause = {
  reason: string | null;
  groupKey: string | null;
  metadata: Record<string, unknown> | null;
  lastPingAt: Date | null;
};

/** One row of `monitors.incident_actions`, as the ping batch and the sweeper write it. */
export type IncidentActionRow = {
  monitorId: string;
  teamId: string;
  kind: "raise" | "resolve";
  title: string;
  description: string;
  severity: string;
  groupKey: string;
  /** JSON text, or null for a resolve. */
  metadata: string | null;
  reopenWindowSeconds: number;
  /** Reminders of the incident's alert; null: none. */
  repeatIntervalSeconds: number | null;
  alertQuotaMonthly: number;
  createdAt: Date;
};

/**
 * What a raise or resolve of `monitor`'s incident says: the alert's text, key
 * and metadata. The ping batch and the sweeper write these into the incident
 * outbox inside the transaction that changed the monitor; they are sent to
 * alerts after the commit (at once by the ping that caused them, or by the
 * outbox worker), so no RPC ever runs inside a transaction.
 */
export function incidentActionRow(
  kind: "raise" | "resolve",
  monitor: MonitorView,
  cause: IncidentCause,
  now: Date,
): IncidentActionRow {
  const text =
    kind === "raise" ? incidentText(monitor, cause.reason, cause.lastPingAt) : { title: "", description: "" };
  return {
    monitorId: monitor.id,
    teamId: monitor.teamId,
    kind,
    title: text.title,
    description: text.description,
    severity: monitor.severity,
    groupKey: incidentGroupKey(monitor.id, cause.groupKey),
    metadata: kind === "raise" ? JSON.stringify(incidentMetadata(monitor, cause.reason, cause.metadata)) : null,
    reopenWindowSeconds: monitor.reopenWindowSeconds,
    repeatIntervalSeconds: monitor.repeatIntervalSeconds,
    alertQuotaMonthly: monitor.alertQuotaMonthly,
    createdAt: now,
  };
}
