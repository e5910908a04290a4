import type { PgPool } from "@pulsegate/db";

/** Per kind: `alerts` counts alerts by status (label); `backlog` counts a stage (label) with its oldest's age. */
export type AlertsStateRow = { kind: string; label: string; count: number; oldest_age_seconds: number | null };

/**
 * One statement: open and acknowledged alerts (through the partial index of alerts not resolved),
 * and the notification backlog in its two stages, outbox events not yet expanded into deliveries
 * (queued; the oldest is the lowest id) and deliveries still pending, with the age of the oldest of each.
 */
export const SELECT_ALERTS_STATE = `
  SELECT 'alerts' AS kind, status AS label, count(*)::int AS count, NULL::float8 AS oldest_age_seconds
    FROM alerts.alerts WHERE status <> 'resolved' GROUP BY status
  UNION ALL
  SELECT 'backlog', 'unexpanded', count(*)::int,
         extract(epoch FROM now() - (SELECT o.created_at FROM alerts.outbox o WHERE o.id = min(q.outbox_id)))::float8
    FROM alerts.outbox_pending q
  UNION ALL
  SELECT 'backlog', 'pending_delivery', count(*)::int, extract(epoch FROM now() - min(created_at))::float8
    FROM alerts.deliveries WHERE status = 'pending'`;

export async function selectAlertsState(pool: PgPool): Promise<AlertsStateRow[]> {
  const result = await pool.query<AlertsStateRow>(SELECT_ALERTS_STATE);
  return result.rows;
}
