import type { EntityManager } from "@pulsegate/db";
import type { IncidentActionRow } from "./incident-action-row.ts";

/** Incident actions into the outbox, the whole list as one JSON document (`?`): one statement however many. */
export const INSERT_INCIDENT_ACTIONS = `
  INSERT INTO monitors.incident_actions (monitor_id, team_id, kind, title, description, severity, group_key, metadata,
                                         reopen_window_seconds, alert_quota_monthly, created_at, next_attempt_at,
                                         repeat_interval_seconds)
  SELECT a."monitorId", a."teamId", a.kind, a.title, a.description, a.severity, a."groupKey", a.metadata::jsonb,
         a."reopenWindowSeconds", a."alertQuotaMonthly", a."createdAt", a."createdAt", a."repeatIntervalSeconds"
    FROM jsonb_to_recordset(?::jsonb)
         AS a("monitorId" text, "teamId" text, kind text, title text, description text, severity text,
              "groupKey" text, metadata text, "reopenWindowSeconds" integer, "alertQuotaMonthly" integer,
              "createdAt" timestamptz, "repeatIntervalSeconds" integer)`;

export async function insertIncidentActions(tx: EntityManager, actions: IncidentActionRow[]): Promise<void> {
  await tx.execute(INSERT_INCIDENT_ACTIONS, [JSON.stringify(actions)]);
}
