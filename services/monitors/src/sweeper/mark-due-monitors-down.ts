import type { EntityManager } from "@pulsegate/db";
import type { MonitorRow } from "../monitors/monitor-row.ts";

/**
 * The due checks, through the index on `due_checks.check_at` (migration 0010), with their monitors
 * locked (SKIP LOCKED: replicas never take one twice; a monitor a ping batch holds is taken at the
 * next sweep); `?` is the batch size. A check is never later than its monitor's `next_due_at`, but may
 * be earlier (a ping that moved the due time later left it alone): `missed` says whether the monitor
 * is due in fact. A deleted team's monitors are taken off the list without going down (a deleted
 * monitor has no due time).
 */
export const SELECT_DUE_MONITORS = `
  SELECT c.id, c.next_due_at,
         (c.next_due_at IS NOT NULL AND c.next_due_at <= now()) AS missed,
         (c.monitoring_active AND (c.status = 'up' OR (c.status = 'idle' AND c.run_started_at IS NOT NULL))
          AND NOT EXISTS (SELECT 1 FROM monitors.team_deletions gone WHERE gone.team_id = c.team_id))
          AS eligible
    FROM monitors.due_checks q
    JOIN monitors.monitors c ON c.id = q.monitor_id
   WHERE q.check_at <= now()
   ORDER BY q.check_at
   LIMIT ?
   FOR UPDATE OF c SKIP LOCKED`;

/**
 * Takes up to `?` due checks. A check that came early is queued again at the monitor's due time; one
 * whose monitor has no due time any more (paused, deleted, down) leaves the queue; a missed monitor
 * leaves it too and has its next_due_at cleared, so a later sweep does not take it again, and the
 * eligible ones go down with the reason given (`?`, `?`: when a run is open, else) and their incident
 * open. Returns the missed monitors, as changed (`swept`: it went down; the others were only taken
 * off the due list), each with how many checks were taken (one row without a monitor when none was
 * missed).
 */
export const MARK_DUE_MONITORS_DOWN = `WITH due AS (${SELECT_DUE_MONITORS}),
     requeued AS (
       UPDATE monitors.due_checks q SET check_at = due.next_due_at
         FROM due
        WHERE q.monitor_id = due.id AND NOT due.missed AND due.next_due_at IS NOT NULL
     ),
     dequeued AS (
       DELETE FROM monitors.due_checks q
        USING due
        WHERE q.monitor_id = due.id AND (due.missed OR due.next_due_at IS NULL)
     ),
     downed AS (
       UPDATE monitors.monitors m
          SET next_due_at = NULL,
              status = CASE WHEN due.eligible THEN 'down' ELSE m.status END,
              last_reason = CASE WHEN NOT due.eligible THEN m.last_reason
                                 WHEN m.run_started_at IS NOT NULL THEN ? ELSE ? END,
              incident_open = m.incident_open OR due.eligible,
              updated_at = now()
         FROM due
        WHERE m.id = due.id AND due.missed
       RETURNING m.*, due.eligible AS swept
     )
   SELECT downed.*, taken.checks AS checks_taken
     FROM (SELECT count(*)::int AS checks FROM due) AS taken LEFT JOIN downed ON true`;

/** The missed monitors, as changed (`swept`: it went down), and how many due checks were taken. */
export async function markDueMonitorsDown(
  tx: EntityManager,
  down: { limit: number; reasonRunOpen: string; reason: string },
): Promise<{ missed: (MonitorRow & { swept: boolean })[]; checksTaken: number }> {
  type Missed = MonitorRow & { swept: boolean };
  type Row = { checks_taken: number } & (Missed | { id: null });
  const rows = await tx.execute<Row[]>(MARK_DUE_MONITORS_DOWN, [down.limit, down.reasonRunOpen, down.reason]);
  return {
    missed: rows.filter((row): row is Row & Missed => row.id !== null),
    checksTaken: Number(rows[0]?.checks_taken ?? 0),
  };
}
