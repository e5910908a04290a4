import type { EntityManager } from "@pulsegate/db";

/** However old, a monitor's newest pings stay, so a quiet monitor keeps its history (as Healthchecks.io does). */
export const PINGS_KEPT_PER_MONITOR = 100;

/**
 * One batch: pings older than the horizon that are not among their monitor's
 * newest `keep` (newest by id, the order the admin API lists them in), taken
 * monitor by monitor from `?` on, all through pings_monitor_idx (monitor_id, id):
 * per monitor, the boundary is the id of its `keep`-th newest ping, and the
 * candidates are its oldest pings below it, of which the old ones go. Ids follow
 * arrival, so a monitor's oldest pings are its old ones; a monitor whose oldest
 * ping is recent costs one index probe. A ping whose received time is older than
 * its id says (a spooled ping, written late) goes once the pings before it have.
 * New pings arriving meanwhile only move the boundary up, so a boundary read
 * earlier never spares too little.
 */
export const DELETE_OLD_PINGS = `
  WITH doomed AS (
    SELECT oldest.id
      FROM monitors.monitors m
     CROSS JOIN LATERAL (SELECT k.id FROM monitors.pings k WHERE k.monitor_id = m.id
                          ORDER BY k.id DESC OFFSET ? LIMIT 1) boundary
     CROSS JOIN LATERAL (SELECT p.id, p.received_at FROM monitors.pings p
                          WHERE p.monitor_id = m.id AND p.id < boundary.id
                          ORDER BY p.id LIMIT ?) oldest
     WHERE m.id >= ?
       AND (SELECT f.received_at FROM monitors.pings f WHERE f.monitor_id = m.id ORDER BY f.id LIMIT 1)
           < now() - make_interval(days => ?)
       AND oldest.received_at < now() - make_interval(days => ?)
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
      batchSize,
      fromMonitor,
      retentionDays,
      retentionDays,
      batchSize,
    ]);
    const deleted = row?.deleted ?? 0;
    if (deleted >= batchSize && row?.last_monitor) fromMonitor = row.last_monitor;
    return deleted;
  };
}
