import type { EntityManager } from "@pulsegate/db";
import type { MonitorRow } from "../monitors/monitor-row.ts";

/**
 * The due monitors, through the partial index on next_due_at (monitors_due_idx); `?` is the batch
 * size. A deleted team's monitors are taken off the list without going down (a deleted monitor has
 * no due time).
 */
export const SELECT_DUE_MONITORS = `
  SELECT c.id, (c.monitoring_active AND (c.status = 'up' OR (c.status = 'idle' AND c.run_started_at IS NOT NULL))
                AND NOT EXISTS (SELECT 1 FROM monitors.team_deletions gone WHERE gone.team_id = c.team_id))
                AS eligible
    FROM monitors.monitors c
   WHERE c.next_due_at <= now()
   ORDER BY c.next_due_at
   LIMIT ?
   FOR UPDATE OF c SKIP LOCKED`;

/**
 * Takes up to `?` due monitors (SKIP LOCKED: replicas never take one twice) and clears their
 * next_due_at, so a later sweep does not take them again; the eligible ones go down with the
 * reason given (`?`, `?`: when a run is open, else) and their incident open.
 */
export const MARK_DUE_MONITORS_DOWN = `WITH due AS (${SELECT_DUE_MONITORS})
       UPDATE monitors.monitors m
          SET next_due_at = NULL,
              status = CASE WHEN due.eligible THEN 'down' ELSE m.status END,
              last_reason = CASE WHEN NOT due.eligible THEN m.last_reason
                                 WHEN m.run_started_at IS NOT NULL THEN ? ELSE ? END,
              incident_open = m.incident_open OR due.eligible,
              updated_at = now()
         FROM due
        WHERE m.id = due.id
       RETURNING m.*, due.eligible AS swept`;

/** Every monitor taken, as changed; `swept`: it went down (the others were only taken off the due list). */
export function markDueMonitorsDown(
  tx: EntityManager,
  down: { limit: number; reasonRunOpen: string; reason: string },
): Promise<(MonitorRow & { swept: boolean })[]> {
  return tx.execute<(MonitorRow & { swept: boolean })[]>(MARK_DUE_MONITORS_DOWN, [
    down.limit,
    down.reasonRunOpen,
    down.reason,
  ]);
}
