import { type EntityManager, rowTextArray } from "@pulsegate/db";
import type { MonitorRow } from "./monitor-row.ts";

export const SELECT_OPEN_ALERT_IDS = "SELECT open_alert_ids FROM monitors.monitors WHERE id = ?";

/** The alerts a monitor's incident has open; none when the monitor is gone. */
export async function selectOpenAlertIds(em: EntityManager, monitorId: string): Promise<string[]> {
  const [monitor] = await em.execute<Pick<MonitorRow, "open_alert_ids">[]>(SELECT_OPEN_ALERT_IDS, [monitorId]);
  return rowTextArray(monitor?.open_alert_ids ?? null);
}
