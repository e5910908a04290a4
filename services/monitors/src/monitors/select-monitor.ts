import type { EntityManager } from "@pulsegate/db";
import type { MonitorRow } from "./monitor-row.ts";

/** The unique keys a monitor is found by: its id, its ping URL's token, its badge's token. */
const SELECT_MONITOR = {
  id: "SELECT * FROM monitors.monitors WHERE id = ?",
  pingUrl: "SELECT * FROM monitors.monitors WHERE ping_url = ?",
  badgeToken: "SELECT * FROM monitors.monitors WHERE badge_token = ?",
} as const;

export async function selectMonitor(
  em: EntityManager,
  by: keyof typeof SELECT_MONITOR,
  value: string,
): Promise<MonitorRow | undefined> {
  const [row] = await em.execute<MonitorRow[]>(SELECT_MONITOR[by], [value]);
  return row;
}

/** A team's monitors, oldest first. */
export function selectTeamMonitors(em: EntityManager, teamId: string): Promise<MonitorRow[]> {
  return em.execute<MonitorRow[]>("SELECT * FROM monitors.monitors WHERE team_id = ? ORDER BY created_at, id", [
    teamId,
  ]);
}
