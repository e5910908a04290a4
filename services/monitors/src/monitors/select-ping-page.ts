import type { PingStatus } from "@pulsegate/contract/vocabulary";
import { type EntityManager, rowDate } from "@pulsegate/db";

export type PingView = {
  id: string;
  monitorId: string;
  status: PingStatus;
  /** For the ping that closed a run: how long the run took. */
  durationMs: number | null;
  reason: string | null;
  metadata: unknown;
  method: string;
  receivedAt: Date;
};

/** A row of `monitors.pings` (bigints as text; timestamps may come back as text from the embedded database). */
type PingRow = {
  id: string;
  monitor_id: string;
  status: PingStatus;
  reason: string | null;
  metadata: unknown;
  method: string;
  received_at: Date | string;
  duration_ms: string | number | null;
};

/** A monitor's pings, newest first, after a cursor (the last id of the previous page). */
const SELECT_PING_PAGE = `
  SELECT id::text AS id, monitor_id, status, reason, metadata, method, received_at, duration_ms FROM monitors.pings
   WHERE monitor_id = ? AND (?::bigint IS NULL OR id < ?::bigint)
   ORDER BY pings.id DESC LIMIT ?`;

export async function selectPingPage(
  em: EntityManager,
  query: { monitorId: string; after: string | null; limit: number },
): Promise<PingView[]> {
  const { monitorId, after, limit } = query;
  const rows = await em.execute<PingRow[]>(SELECT_PING_PAGE, [monitorId, after, after, limit]);
  return rows.map((row) => ({
    id: row.id,
    monitorId: row.monitor_id,
    status: row.status,
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    reason: row.reason ?? null,
    metadata: row.metadata ?? null,
    method: row.method,
    receivedAt: rowDate(row.received_at),
  }));
}
