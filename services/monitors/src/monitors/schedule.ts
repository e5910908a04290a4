import type { FieldProblem } from "@pulsegate/contract/errors";
import { Cron } from "croner";
import { isIanaTimeZone } from "./iana-time-zone.ts";

/** A monitor's cron schedule: a 5-field expression read in an IANA time zone. */
export type Schedule = { expression: string; timezone: string };

export const DEFAULT_TIMEZONE = "UTC";

/** Parsed schedules, by expression and zone: the ping batch asks for many next times. */
const parsed = new Map<string, Cron>();
const MAX_PARSED = 10_000;

function cronOf(schedule: Schedule): Cron {
  const key = `${schedule.timezone}\u0000${schedule.expression}`;
  let cron = parsed.get(key);
  if (!cron) {
    cron = new Cron(schedule.expression, { timezone: schedule.timezone, paused: true, mode: "5-part" });
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(key, cron);
  }
  return cron;
}

/** The first time the schedule fires strictly after `after`; null when it never fires again. */
export function nextRun(schedule: Schedule, after: Date): Date | null {
  return cronOf(schedule).nextRun(after);
}

/**
 * Checks a schedule as an admin sends it: five fields (minute, hour, day of
 * month, month, day of week; names and steps allowed; no seconds or years,
 * so it means what crontab means), an IANA time zone name (iana-time-zone.ts), and at
 * least one future run. Returns the problems, named by field.
 */
export function checkSchedule(expression: string, timezone: string): FieldProblem[] {
  const fields = expression.trim().split(/\s+/);
  if (expression.trim() === "" || fields.length !== 5) {
    return [
      {
        field: "schedule",
        message: "schedule must be a cron expression of 5 fields: minute hour day-of-month month day-of-week.",
      },
    ];
  }
  if (!isIanaTimeZone(timezone)) {
    return [
      {
        field: "timezone",
        message:
          "timezone must be an IANA time zone name spelled as the tz database spells it, such as Europe/Berlin or UTC (not an offset such as +02:00).",
      },
    ];
  }
  try {
    const cron = new Cron(expression, { timezone, paused: true, mode: "5-part" });
    if (cron.nextRun(new Date()) === null) {
      return [{ field: "schedule", message: "schedule never fires." }];
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [{ field: "schedule", message: `schedule is not a valid cron expression (${reason}).` }];
  }
  return [];
}
