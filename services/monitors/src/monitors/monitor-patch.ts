import type { FieldProblem } from "@pulsegate/contract/errors";
import type { Severity } from "@pulsegate/contract/vocabulary";
import { dueAfter } from "../pings/ping-transition.ts";
import type { MonitorView } from "./monitor-row.ts";
import { checkMonitorSettings, type MonitorSettings } from "./monitor-settings.ts";

/**
 * A change to a monitor's settings: absent fields stay as they are. `schedule: ""` makes it an
 * interval monitor again, `timezone: ""` the default zone, 0 means none for the maximum duration
 * and reminders (what JSON null says at the gateway).
 */
export type MonitorPatch = {
  name?: string | undefined;
  intervalSeconds?: number | undefined;
  graceSeconds?: number | undefined;
  severity?: Severity | undefined;
  reopenWindowSeconds?: number | undefined;
  schedule?: string | undefined;
  timezone?: string | undefined;
  maxDurationSeconds?: number | undefined;
  repeatIntervalSeconds?: number | undefined;
  requireTimestamp?: boolean | undefined;
};

/** Interval or schedule, and the schedule's zone: checked together, as create checks them. */
const MODE_FIELDS = ["intervalSeconds", "schedule", "timezone"];

/**
 * The interval or schedule after the patch. A schedule given puts the monitor on it (in the zone
 * given, else its current schedule's, else UTC); an interval given, or `schedule: ""`, makes it an
 * interval monitor (the interval given, else the one it had); neither keeps the current mode, a
 * zone given applying to its schedule. An interval and a schedule together, or a zone for an
 * interval monitor, are refused as on create.
 */
function modeAfter(current: MonitorView, patch: MonitorPatch) {
  if (patch.schedule !== undefined && patch.schedule.trim() !== "") {
    return {
      schedule: patch.schedule,
      timezone: patch.timezone ?? current.schedule?.timezone,
      intervalSeconds: patch.intervalSeconds,
    };
  }
  if (patch.schedule !== undefined || patch.intervalSeconds !== undefined || current.schedule === null) {
    return { intervalSeconds: patch.intervalSeconds ?? current.intervalSeconds, timezone: patch.timezone };
  }
  return { schedule: current.schedule.expression, timezone: patch.timezone ?? current.schedule.timezone };
}

/**
 * The monitor's settings after `patch`, checked by the rules of create (monitor-settings.ts). Only
 * what the patch touches is held to them: a name or zone stored before a rule was tightened does not
 * block a change to something else.
 */
export function patchedSettings(
  current: MonitorView,
  patch: MonitorPatch,
): { settings: MonitorSettings; errors: FieldProblem[] } {
  const mode = modeAfter(current, patch);
  const { settings, errors } = checkMonitorSettings({
    name: patch.name ?? current.name,
    intervalSeconds: mode.intervalSeconds,
    graceSeconds: patch.graceSeconds ?? current.graceSeconds,
    severity: patch.severity ?? current.severity,
    reopenWindowSeconds: patch.reopenWindowSeconds ?? current.reopenWindowSeconds,
    schedule: mode.schedule,
    timezone: mode.timezone,
    maxDurationSeconds: patch.maxDurationSeconds ?? current.maxDurationSeconds ?? 0,
    repeatIntervalSeconds: patch.repeatIntervalSeconds ?? current.repeatIntervalSeconds ?? 0,
    requireTimestamp: patch.requireTimestamp ?? current.requireTimestamp,
    signatureScheme: current.signatureScheme,
  });
  const touched = new Set(Object.entries(patch).flatMap(([field, value]) => (value === undefined ? [] : [field])));
  if (MODE_FIELDS.some((field) => touched.has(field))) for (const field of MODE_FIELDS) touched.add(field);
  // A scheduled monitor keeps the interval it had (unused), for the day it becomes an interval monitor again.
  if (settings.schedule) settings.intervalSeconds = current.intervalSeconds;
  return { settings, errors: errors.filter((problem) => touched.has(problem.field)) };
}

/**
 * When the sweeper expects the monitor after a change of settings (docs/monitors.md, "Changing a
 * monitor"): only a monitor being watched has a due time, and it is worked out again from the same
 * starting point under the new settings — an open run's start plus the shorter of grace and
 * maximum duration, else the last ping plus the interval (or the schedule's next run) and grace.
 * It may now be past: the next sweep then marks the monitor down, as if the settings had always
 * been these. Idle, down and paused monitors stay without one.
 */
export function dueAfterChange(current: MonitorView, settings: MonitorSettings): Date | null {
  if (current.nextDueAt === null) return null;
  if (current.runStartedAt !== null) {
    const windowSeconds = Math.min(settings.graceSeconds, settings.maxDurationSeconds ?? Number.POSITIVE_INFINITY);
    return new Date(current.runStartedAt.getTime() + windowSeconds * 1000);
  }
  if (current.lastPingAt === null) return current.nextDueAt;
  return dueAfter(
    {
      status: current.status,
      lastPingAt: current.lastPingAt,
      lastReason: current.lastReason,
      incidentOpen: current.incidentOpen,
      intervalSeconds: settings.intervalSeconds,
      graceSeconds: settings.graceSeconds,
      schedule: settings.schedule,
    },
    current.lastPingAt,
  );
}
