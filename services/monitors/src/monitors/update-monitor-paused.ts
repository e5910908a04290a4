import type { EntityManager } from "@pulsegate/db";
import type { MonitorRow } from "./monitor-row.ts";

/**
 * Paused: not monitoring, no deadline, no open run (pausing twice is harmless). Resumed: a paused
 * monitor goes back to idle, monitoring again from its next ping; others are left as they are.
 */
const UPDATE_MONITOR_PAUSED = {
  pause: `UPDATE monitors.monitors
             SET status = 'paused', monitoring_active = false, next_due_at = NULL, run_started_at = NULL, updated_at = ?
           WHERE id = ? AND deleted_at IS NULL RETURNING *`,
  resume: `UPDATE monitors.monitors
              SET status = 'idle', monitoring_active = false, next_due_at = NULL, run_started_at = NULL, updated_at = ?
            WHERE id = ? AND status = 'paused' AND deleted_at IS NULL RETURNING *`,
} as const;

/** The monitor as changed; undefined when unknown (pause) or not paused (resume). */
export async function updateMonitorPaused(
  em: EntityManager,
  change: keyof typeof UPDATE_MONITOR_PAUSED,
  id: string,
  at: Date,
): Promise<MonitorRow | undefined> {
  const [row] = await em.execute<MonitorRow[]>(UPDATE_MONITOR_PAUSED[change], [at, id]);
  return row;
}
