import { inTransaction, type PgPool } from "@pulsegate/db";
import { reportSetAside, setAsideReason } from "@pulsegate/grpc";
import { type Periodic, periodic } from "@pulsegate/runtime/lifecycle";
import type { Logger } from "@pulsegate/runtime/logger";
import { isTransientError } from "@pulsegate/runtime/transient-error";
import { inBackgroundSpan } from "@pulsegate/telemetry";
import { alertFromRow } from "../alerts/alert-row.ts";
import { alertEvent, writeOutboxEvents } from "../outbox/write-outbox-events.ts";
import { selectDueReminderIds, setAsideReminder, takeDueReminders } from "./take-due-reminders.ts";

export const REMINDER_BATCH = 200;

export type ReminderPass = { sent: number; full: boolean };

/**
 * One reminder pass (like Alertmanager's repeat_interval): every
 * open, unacknowledged alert whose reminder is due gets an `alert.reminder`
 * outbox event, delivered to its channels like any event, in one transaction
 * of two statements. One alert must never stall every team's reminders: when
 * the batch fails for a reason other than an unreachable database, its alerts
 * are taken one at a time, and one that fails on its own is taken off the
 * reminder list and set aside (`reminder_set_aside_at`, `_reason`), counted and
 * logged once. Returns how many reminders were written and whether the batch
 * was full (more may be due).
 */
export async function sendDueReminders(pool: PgPool, now: Date, log: Pick<Logger, "warn">): Promise<ReminderPass> {
  try {
    return await sendReminders(pool, now, null);
  } catch (error) {
    if (isTransientError(error)) throw error;
    return sendOneByOne(pool, now, log);
  }
}

async function sendOneByOne(pool: PgPool, now: Date, log: Pick<Logger, "warn">): Promise<ReminderPass> {
  const due = await selectDueReminderIds(pool, now, REMINDER_BATCH);
  let sent = 0;
  for (const alertId of due) {
    try {
      sent += (await sendReminders(pool, now, alertId)).sent;
    } catch (error) {
      if (isTransientError(error)) throw error;
      const reason = setAsideReason(error);
      // Counted and logged once: not when the alert left the reminder list meanwhile.
      if (await setAsideReminder(pool, alertId, reason)) reportSetAside(log, "reminders", { alertId }, reason);
    }
  }
  return { sent, full: due.length === REMINDER_BATCH };
}

/** The due reminders (or only alert `onlyId`'s), written in one transaction. */
function sendReminders(pool: PgPool, now: Date, onlyId: string | null): Promise<ReminderPass> {
  return inTransaction(pool, async (client) => {
    const rows = await takeDueReminders(client, { now, limit: REMINDER_BATCH, onlyId });
    const alerts = rows.filter((row) => row.status === "open").map(alertFromRow);
    if (alerts.length > 0) {
      // A pass that found reminders is a trace of its own, which their deliveries continue.
      await inBackgroundSpan("alerts.reminders", { attributes: { "pulsegate.reminders": alerts.length } }, () =>
        writeOutboxEvents(
          client,
          alerts.map((alert) => alertEvent("alert.reminder", alert, now)),
        ),
      );
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
        const { sent, full } = await sendDueReminders(pool, now(), log);
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
