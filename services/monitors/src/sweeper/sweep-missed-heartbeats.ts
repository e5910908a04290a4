import type { Orm } from "@pulsegate/db";
import { incidentActionRow } from "../incidents/incident-action-row.ts";
import { MISSED_HEARTBEAT, RUN_DID_NOT_FINISH } from "../incidents/incident-text.ts";
import { type MonitorRow, monitorFromRow } from "../monitors/monitor-row.ts";

export const SWEEP_BATCH = 200;

/** The due monitors, through the partial index on next_due_at (monitors_due_idx); `?` is the batch size. */
export const SELECT_DUE_MONITORS = `
  SELECT id, (monitoring_active AND (status = 'up' OR (status = 'idle' AND run_started_at IS NOT NULL))) AS eligible
    FROM monitors.monitors
   WHERE next_due_at <= now()
   ORDER BY next_due_at
   LIMIT ?
   FOR UPDATE SKIP LOCKED`;

const INSERT_ACTIONS = `
  INSERT INTO monitors.incident_actions (monitor_id, team_id, kind, title, description, severity, group_key, metadata,
                                         reopen_window_seconds, alert_quota_monthly, created_at, next_attempt_at,
                                         repeat_interval_seconds)
  SELECT a."monitorId", a."teamId", a.kind, a.title, a.description, a.severity, a."groupKey", a.metadata::jsonb,
         a."reopenWindowSeconds", a."alertQuotaMonthly", a."createdAt", a."createdAt", a."repeatIntervalSeconds"
    FROM jsonb_to_recordset(?::jsonb)
         AS a("monitorId" text, "teamId" text, kind text, title text, description text, severity text,
              "groupKey" text, metadata text, "reopenWindowSeconds" integer, "alertQuotaMonthly" integer,
              "createdAt" timestamptz, "repeatIntervalSeconds" integer)`;

/**
 * One sweep batch (DESIGN §5 "missed heartbeat"): every monitor whose
 * next_due_at has passed goes down with reason `missed heartbeat` (or, when a
 * start ping opened a run that has not finished, `run did not finish`), and its
 * incident is raised through the outbox, in one transaction. next_due_at is
 * set only while a monitored monitor is up, so the partial index on it holds
 * the due monitors alone and healthy ones cost nothing. SKIP LOCKED lets
 * replicas sweep side by side without taking a monitor twice; clearing
 * next_due_at in the same statement keeps a later sweep from taking it again.
 * Returns how many monitors went down and whether the batch was full.
 */
export async function sweepMissedHeartbeats(orm: Orm, now: () => Date = () => new Date()) {
  return orm.em.fork().transactional(async (tx) => {
    const rows = await tx.execute<(MonitorRow & { swept: boolean })[]>(
      `WITH due AS (${SELECT_DUE_MONITORS})
       UPDATE monitors.monitors m
          SET next_due_at = NULL,
              status = CASE WHEN due.eligible THEN 'down' ELSE m.status END,
              last_reason = CASE WHEN NOT due.eligible THEN m.last_reason
                                 WHEN m.run_started_at IS NOT NULL THEN ? ELSE ? END,
              incident_open = m.incident_open OR due.eligible,
              updated_at = now()
         FROM due
        WHERE m.id = due.id
       RETURNING m.*, due.eligible AS swept`,
      [SWEEP_BATCH, RUN_DID_NOT_FINISH, MISSED_HEARTBEAT],
    );
    const swept = rows.filter((row) => row.swept).map(monitorFromRow);
    const at = now();
    const actions = swept.map((monitor) =>
      incidentActionRow(
        "raise",
        monitor,
        { reason: monitor.lastReason, groupKey: null, metadata: null, lastPingAt: monitor.lastPingAt },
        at,
      ),
    );
    // Every raise of the batch in one statement.
    if (actions.length > 0) await tx.execute(INSERT_ACTIONS, [JSON.stringify(actions)]);
    return { down: swept, full: rows.length === SWEEP_BATCH };
  });
}
