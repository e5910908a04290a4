import { type PgClient, type PgPool, run, statement } from "@pulsegate/db";
import { type AlertRow, alertColumns } from "../alerts/alert-row.ts";

/**
 * Reminders as a queue: the alerts whose reminder is due, through the partial index on
 * next_reminder_at (set only while an alert with an interval is open and unacknowledged).
 */

/**
 * Locks due alerts with SKIP LOCKED, so replicas share the work, and moves each to its next
 * reminder, now + its interval (a pass that was late sends one reminder, not one per interval
 * missed). $1 now; $2 batch size; $3 only this alert, or null.
 */
export const TAKE_DUE_REMINDERS = statement(
  "alerts-take-due-reminders",
  `WITH due AS (
     SELECT id FROM alerts.alerts
      WHERE next_reminder_at <= $1 AND ($3::text IS NULL OR id = $3::text)
      ORDER BY next_reminder_at
      LIMIT $2
      FOR UPDATE SKIP LOCKED
   )
   UPDATE alerts.alerts a
      SET next_reminder_at = CASE WHEN a.status = 'open' AND a.repeat_interval_seconds IS NOT NULL
                                  THEN $1 + make_interval(secs => a.repeat_interval_seconds) END,
          reminders_sent = a.reminders_sent + CASE WHEN a.status = 'open' THEN 1 ELSE 0 END
     FROM due
    WHERE a.id = due.id
   RETURNING ${alertColumns("a")}`,
);

/** The due alerts' ids, unlocked (to take them one at a time). $1 now; $2 batch size. */
export const SELECT_DUE_REMINDER_IDS = statement(
  "alerts-select-due-reminder-ids",
  "SELECT id FROM alerts.alerts WHERE next_reminder_at <= $1 ORDER BY next_reminder_at LIMIT $2",
);

/** Off the reminder list, with the reason (once: only while on it). $1 id; $2 reason. */
export const SET_ASIDE_REMINDER = statement(
  "alerts-set-aside-reminder",
  `UPDATE alerts.alerts SET next_reminder_at = NULL, reminder_set_aside_at = now(), reminder_set_aside_reason = $2
    WHERE id = $1 AND next_reminder_at IS NOT NULL
    RETURNING id`,
);

/** Every alert taken, as changed (those no longer open were only taken off the reminder list). */
export function takeDueReminders(
  client: PgClient,
  take: { now: Date; limit: number; onlyId: string | null },
): Promise<AlertRow[]> {
  return run<AlertRow>(client, TAKE_DUE_REMINDERS, [take.now, take.limit, take.onlyId]);
}

export async function selectDueReminderIds(pool: PgPool, now: Date, limit: number): Promise<string[]> {
  return (await run<{ id: string }>(pool, SELECT_DUE_REMINDER_IDS, [now, limit])).map((row) => row.id);
}

/** True when this call took the alert off the reminder list; false when it was off it already. */
export async function setAsideReminder(pool: PgPool, alertId: string, reason: string): Promise<boolean> {
  return (await run<{ id: string }>(pool, SET_ASIDE_REMINDER, [alertId, reason])).length > 0;
}
