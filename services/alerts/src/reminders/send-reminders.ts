import { inTransaction, type PgPool, run, statement } from "@pulsegate/db";
import { type Periodic, periodic } from "@pulsegate/lifecycle";
import type { Logger } from "@pulsegate/logger";
import { type AlertRow, alertFromRow } from "../alerts/alert-row.ts";
import { outboxPayload } from "../outbox/write-outbox-event.ts";

export const REMINDER_BATCH = 200;

/**
 * The alerts whose reminder is due, through the partial index on
 * next_reminder_at (set only while an alert with an interval is open and
 * unacknowledged), locked with SKIP LOCKED so replicas share the work; each
 * is moved to its next reminder, now + its interval (a pass that was late
 * sends one reminder, not one per interval missed). $1 now; $2 batch size.
 */
const TAKE_DUE = statement(
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

const WRITE_REMINDERS = statement(
  "alerts-write-reminders",
  `INSERT INTO alerts.outbox (team_id, alert_id, event_type, payload, created_at)
   SELECT e.team_id, e.alert_id, 'alert.reminder', e.payload, $4
     FROM unnest($1::text[], $2::text[], $3::jsonb[]) WITH ORDINALITY AS e(team_id, alert_id, payload, ord)
    ORDER BY e.ord`,
);

/**
 * One reminder pass (issue 13, like Alertmanager's repeat_interval): every
 * open, unacknowledged alert whose reminder is due gets an `alert.reminder`
 * outbox event, delivered to its channels like any event, in one transaction
 * of two statements. Returns how many reminders were written and whether the
 * batch was full (more may be due).
 */
export async function sendDueReminders(pool: PgPool, now: Date): Promise<{ sent: number; full: boolean }> {
  return inTransaction(pool, async (client) => {
    const rows = await run<AlertRow>(client, TAKE_DUE, [now, REMINDER_BATCH]);
    const alerts = rows.filter((row) => row.status === "open").map(alertFromRow);
    if (alerts.length > 0) {
      await run(client, WRITE_REMINDERS, [
        alerts.map((alert) => alert.teamId),
        alerts.map((alert) => alert.id),
        alerts.map((alert) => outboxPayload("alert.reminder", alert, now)),
        now,
      ]);
    }
    return { sent: alerts.length, full: rows.length === REMINDER_BATCH };
  });
}

/** The periodic reminder pass (un-started); nudges the dispatcher when it wrote events. */
export function reminderSchedule(
  pool: PgPool,
  log: Logger,
  options: { intervalMs: number; onOutboxWritten: () => void; now?: () => Date },
): Periodic {
  const now = options.now ?? (() => new Date());
  return periodic({
    name: "reminders",
    log,
    intervalMs: options.intervalMs,
    task: async () => {
      try {
        const { sent, full } = await sendDueReminders(pool, now());
        if (sent > 0) {
          log.info({ reminders: sent }, "reminders queued");
          options.onOutboxWritten();
        }
        return full;
      } catch (error) {
        log.warn({ err: error }, "reminder pass failed; trying again at the next interval");
        return false;
      }
    },
  });
}
