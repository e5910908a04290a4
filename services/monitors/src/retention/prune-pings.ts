import type { EntityManager } from "@pulsegate/db";

/** However old, a monitor's newest pings stay, so a quiet monitor keeps its history (as Healthchecks.io does). */
export const PINGS_KEPT_PER_MONITOR = 100;

/**
 * One batch: pings older than the horizon that are not among their monitor's
 * newest `keep` (newest by id, the order the admin API lists them in), taken
 * monitor by monitor from `?` on. Per monitor, the boundary is the id of its
 * `keep`-th newest ping (pings_monitor_idx) and the old pings come from
 * pings_monitor_received_idx, so recent pings are never read; monitors
 * without an old ping cost one index probe. New pings arriving meanwhile only
 * move the boundary up, so a boundary read earlier never spares too little.
 */
const DELETE_OLD_PINGS = `
  WITH doomed AS (
    SELECT old.id
      FROM monitors.monitors m
     CROSS JOIN LATERAL (SELECT k.id FROM monitors.pings k WHERE k.monitor_id = m.id
                          ORDER BY k.id DESC OFFSET ? LIMIT 1) boundary
     CROSS JOIN LATERAL (SELECT p.id FROM monitors.pings p
                          WHERE p.monitor_id = m.id AND p.received_at < now() - make_interval(days => ?)
                            AND p.id < boundary.id
                          LIMIT ?) old
     WHERE m.id >= ?
       AND EXISTS (SELECT 1 FROM monitors.pings o
                    WHERE o.monitor_id = m.id AND o.received_at < now() - make_interval(days => ?))
     ORDER BY m.id
     LIMIT ?
  ), deleted AS (
    DELETE FROM monitors.pings p USING doomed WHERE p.id = doomed.id RETURNING p.monitor_id
  )
  SELECT count(*)::int AS deleted, max(monitor_id) AS last_monitor FROM deleted`;

/**
 * Returns the batch step for deleteInBatches. It remembers the monitor a full
 * batch stopped in, so the next batch resumes there instead of probing every
 * monitor before it again (the cursor compares in the database's collation,
 * like the ORDER BY).
 */
export function oldPingBatches(
  retentionDays: number,
  keep = PINGS_KEPT_PER_MONITOR,
): (tx: EntityManager, batchSize: number) => Promise<number> {
  let fromMonitor = "";
  return async (tx, batchSize) => {
    const [row] = await tx.execute<{ deleted: number; last_monitor: string | null }[]>(DELETE_OLD_PINGS, [
      keep - 1,
      retentionDays,
      batchSize,
      fromMonitor,
      retentionDays,
      batchSize,
    ]);
    const deleted = row?.deleted ?? 0;
    if (deleted >= batchSize && row?.last_monitor) fromMonitor = row.last_monitor;
    return deleted;
  };
}
