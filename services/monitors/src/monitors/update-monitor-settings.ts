import type { EntityManager } from "@pulsegate/db";
import { liveMonitor } from "./live-monitor.sql.ts";
import type { MonitorRow } from "./monitor-row.ts";
import type { MonitorSettings } from "./monitor-settings.ts";

/** The live monitor, locked until the change is written (a ping batch waits, or is waited for). */
const LOCK_MONITOR = `SELECT m.* FROM monitors.monitors m WHERE m.id = ? AND ${liveMonitor("m")} FOR UPDATE OF m`;

const UPDATE_MONITOR_SETTINGS = `
  UPDATE monitors.monitors
     SET name = ?, interval_seconds = ?, grace_seconds = ?, severity = ?, reopen_window_seconds = ?, schedule = ?,
         timezone = ?, max_duration_seconds = ?, repeat_interval_seconds = ?, require_timestamp = ?, next_due_at = ?,
         updated_at = ?
   WHERE id = ? RETURNING *`;

export async function lockMonitor(tx: EntityManager, id: string): Promise<MonitorRow | undefined> {
  const [row] = await tx.execute<MonitorRow[]>(LOCK_MONITOR, [id]);
  return row;
}

export async function updateMonitorSettings(
  tx: EntityManager,
  id: string,
  change: { settings: MonitorSettings; nextDueAt: Date | null; at: Date },
): Promise<MonitorRow> {
  const { settings } = change;
  const [row] = await tx.execute<MonitorRow[]>(UPDATE_MONITOR_SETTINGS, [
    settings.name,
    settings.intervalSeconds,
    settings.graceSeconds,
    settings.severity,
    settings.reopenWindowSeconds,
    settings.schedule?.expression ?? null,
    settings.schedule?.timezone ?? null,
    settings.maxDurationSeconds,
    settings.repeatIntervalSeconds,
    settings.requireTimestamp,
    change.nextDueAt,
    change.at,
    id,
  ]);
  return row as MonitorRow;
}
