import type { EntityManager } from "@pulsegate/db";
import type { MonitorRow } from "./monitor-row.ts";
import type { MonitorSettings } from "./monitor-settings.ts";

/** A new monitor starts idle, not monitoring (DESIGN §5). */
const INSERT_MONITOR = `
  INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                 grace_seconds, severity, reopen_window_seconds, schedule, timezone,
                                 max_duration_seconds, badge_token, repeat_interval_seconds, require_timestamp,
                                 signature_scheme, created_at, updated_at)
  VALUES (?, ?, ?, ?, 'idle', false, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`;

export async function insertMonitor(
  em: EntityManager,
  monitor: { id: string; teamId: string; pingUrl: string; badgeToken: string; settings: MonitorSettings; at: Date },
): Promise<MonitorRow> {
  const { settings, at } = monitor;
  const [row] = await em.execute<MonitorRow[]>(INSERT_MONITOR, [
    monitor.id,
    monitor.teamId,
    monitor.pingUrl,
    settings.name,
    settings.intervalSeconds,
    settings.graceSeconds,
    settings.severity,
    settings.reopenWindowSeconds,
    settings.schedule?.expression ?? null,
    settings.schedule?.timezone ?? null,
    settings.maxDurationSeconds,
    monitor.badgeToken,
    settings.repeatIntervalSeconds,
    settings.requireTimestamp,
    settings.signatureScheme,
    at,
    at,
  ]);
  return row as MonitorRow;
}
