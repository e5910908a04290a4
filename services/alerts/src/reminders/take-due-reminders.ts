import { type PgClient, run, statement } from "@pulsegate/db";
import type { AlertRow } from "../alerts/alert-row.ts";

/**
 * The alerts whose reminder is due, through the partial index on
 * next_reminder_at (set only while an alert with an interval is open and
 * unacknowledged), locked with SKIP LOCKED so replicas share the work; each
 * is moved to its next reminder, now + its interval (a pass that was late
 * sends one reminder, not one per interval missed). $1 now; $2 batch size.
 */
export const TAKE_DUE_REMINDERS = statement(
  "alerts-take-due-reminders",
  `WITH due AS (
     SELECT id FROM alerts.alerts
      WHERE next_reminder_at <= $1
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
   RETURNING a.*`,
);

/** Every alert taken, as changed (those no longer open were only taken off the reminder list). */
export function takeDueReminders(client: PgClient, now: Date, limit: number): Promise<AlertRow[]> {
  return run<AlertRow>(client, TAKE_DUE_REMINDERS, [now, limit]);
}
