import type { EntityManager } from "@pulsegate/db";

export const SELECT_MONITOR_COUNTS = "SELECT status, count(*)::int AS count FROM monitors.monitors GROUP BY status";

/** How many monitors have each status (statuses no monitor has are absent). */
export async function selectMonitorCounts(em: EntityManager): Promise<Map<string, number>> {
  const rows = await em.execute<{ status: string; count: number }[]>(SELECT_MONITOR_COUNTS);
  return new Map(rows.map((row) => [row.status, Number(row.count)]));
}
