import type { EntityManager } from "@pulsegate/db";
import type { MonitorView } from "../monitors/monitor-row.ts";
import { incidentGroupKey, incidentMetadata, incidentText } from "./incident-text.ts";

export type IncidentCause = {
  reason: string | null;
  groupKey: string | null;
  metadata: Record<string, unknown> | null;
  lastPingAt: Date | null;
};

/**
 * Appends a raise or resolve to the incident outbox, inside the caller's
 * transaction (the one that changed the monitor). The outbox worker sends it
 * to alerts after the commit: no RPC ever runs inside a transaction.
 */
export async function writeIncidentAction(
  tx: EntityManager,
  kind: "raise" | "resolve",
  monitor: MonitorView,
  cause: IncidentCause,
  now: Date,
): Promise<void> {
  const text =
    kind === "raise" ? incidentText(monitor, cause.reason, cause.lastPingAt) : { title: "", description: "" };
  const metadata = kind === "raise" ? JSON.stringify(incidentMetadata(monitor, cause.reason, cause.metadata)) : null;
  await tx.execute(
    `INSERT INTO monitors.incident_actions (monitor_id, team_id, kind, title, description, severity, group_key, metadata,
                                            reopen_window_seconds, alert_quota_monthly, created_at, next_attempt_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?::json, ?, ?, ?, ?)`,
    [
      monitor.id,
      monitor.teamId,
      kind,
      text.title,
      text.description,
      monitor.severity,
      incidentGroupKey(monitor.id, cause.groupKey),
      metadata,
      monitor.reopenWindowSeconds,
      monitor.alertQuotaMonthly,
      now,
      now,
    ],
  );
}
