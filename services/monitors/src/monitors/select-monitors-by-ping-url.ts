import { type PgPool, run, statement } from "@pulsegate/db";
import { liveMonitor } from "./live-monitor.sql.ts";
import { type MonitorRow, monitorColumns } from "./monitor-row.ts";

/**
 * Many ping URLs at once (the gateway's cache misses of one moment): one prepared statement on the
 * hot path's pool. A deleted monitor, or one of a deleted team, is unknown.
 */
const SELECT_MONITORS_BY_PING_URL = statement(
  "monitors-lookup-by-ping-url",
  `SELECT ${monitorColumns("m")} FROM monitors.monitors m WHERE m.ping_url = ANY($1::text[]) AND ${liveMonitor("m")}`,
);

export function selectMonitorsByPingUrl(pool: PgPool, pingUrls: string[]): Promise<MonitorRow[]> {
  return run<MonitorRow>(pool, SELECT_MONITORS_BY_PING_URL, [pingUrls]);
}
