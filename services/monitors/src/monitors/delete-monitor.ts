import type { EntityManager } from "@pulsegate/db";
import { liveMonitor } from "./live-monitor.sql.ts";
import type { MonitorRow } from "./monitor-row.ts";

/**
 * Hides a live monitor at once (every look-up leaves deleted ones out) and stops watching it; the
 * purge removes it and its pings later (purge-deleted.ts).
 */
const DELETE_MONITOR = `
  UPDATE monitors.monitors m
     SET deleted_at = ?, next_due_at = NULL, run_started_at = NULL, updated_at = ?
   WHERE m.id = ? AND ${liveMonitor("m")}
  RETURNING m.*`;

/** The monitor as it was; undefined when there is no such live monitor. */
export async function deleteMonitor(em: EntityManager, id: string, at: Date): Promise<MonitorRow | undefined> {
  const [row] = await em.execute<MonitorRow[]>(DELETE_MONITOR, [at, at, id]);
  return row;
}

/** A deleted team, recorded once: its monitors are unknown from now on and purged in the background. */
const INSERT_TEAM_DELETION = `
  INSERT INTO monitors.team_deletions (team_id, deleted_at) VALUES (?, ?) ON CONFLICT (team_id) DO NOTHING`;

export async function insertTeamDeletion(em: EntityManager, teamId: string, at: Date): Promise<void> {
  await em.execute(INSERT_TEAM_DELETION, [teamId, at]);
}
