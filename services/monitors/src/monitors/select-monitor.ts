import type { EntityManager } from "@pulsegate/db";
import { liveMonitor } from "./live-monitor.sql.ts";
import type { MonitorRow } from "./monitor-row.ts";

/** The unique keys a live monitor is found by: its id, its ping URL's token, its badge's token. */
const SELECT_MONITOR = {
  id: `SELECT m.* FROM monitors.monitors m WHERE m.id = ? AND ${liveMonitor("m")}`,
  pingUrl: `SELECT m.* FROM monitors.monitors m WHERE m.ping_url = ? AND ${liveMonitor("m")}`,
  badgeToken: `SELECT m.* FROM monitors.monitors m WHERE m.badge_token = ? AND ${liveMonitor("m")}`,
} as const;

export async function selectMonitor(
  em: EntityManager,
  by: keyof typeof SELECT_MONITOR,
  value: string,
): Promise<MonitorRow | undefined> {
  const [row] = await em.execute<MonitorRow[]>(SELECT_MONITOR[by], [value]);
  return row;
}

/** A team's live monitors, oldest first. */
export function selectTeamMonitors(em: EntityManager, teamId: string): Promise<MonitorRow[]> {
  return em.execute<MonitorRow[]>(
    `SELECT m.* FROM monitors.monitors m WHERE m.team_id = ? AND ${liveMonitor("m")} ORDER BY m.created_at, m.id`,
    [teamId],
  );
}
