import { inTransaction, type PgPool } from "@pulsegate/db";
import { type Periodic, periodic } from "@pulsegate/lifecycle";
import type { Logger } from "@pulsegate/logger";
import { alertFromRow } from "../alerts/alert-row.ts";
import { outboxPayload } from "../outbox/write-outbox-event.ts";
import { takeDueReminders } from "./take-due-reminders.ts";
import { writeReminderEvents } from "./write-reminder-events.ts";

export const REMINDER_BATCH = 200;

/**
 * One reminder pass (issue 13, like Alertmanager's repeat_interval): every
 * open, unacknowledged alert whose reminder is due gets an `alert.reminder`
 * outbox event, delivered to its channels like any event, in one transaction
 * of two statements. Returns how many reminders were written and whether the
 * batch was full (more may be due).
 */
export async function sendDueReminders(pool: PgPool, now: Date): Promise<{ sent: number; full: boolean }> {
  return inTransaction(pool, async (client) => {
    const rows = await takeDueReminders(client, now, REMINDER_BATCH);
    const alerts = rows.filter((row) => row.status === "open").map(alertFromRow);
    if (alerts.length > 0) {
      const events = alerts.map((alert) => ({
        teamId: alert.teamId,
        alertId: alert.id,
        payload: outboxPayload("alert.reminder", alert, now),
      }));
      await writeReminderEvents(client, events, now);
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
