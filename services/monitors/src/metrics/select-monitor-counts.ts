import type { EntityManager } from "@pulsegate/db";

import { liveMonitor } from "../monitors/live-monitor.sql.ts";

/** Live monitors only: a deleted one waiting for the purge is no longer watched. */
export const SELECT_MONITOR_COUNTS = `SELECT m.status, count(*)::int AS count FROM monitors.monitors m
  WHERE ${liveMonitor("m")} GROUP BY m.status`;

/** How many monitors have each status (statuses no monitor has are absent). */
export async function selectMonitorCounts(em: EntityManager): Promise<Map<string, number>> {
  const rows = await em.execute<{ status: string; count: number }[]>(SELECT_MONITOR_COUNTS);
  return new Map(rows.map((row) => [row.status, Number(row.count)]));
}
