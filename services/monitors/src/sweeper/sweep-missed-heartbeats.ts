import type { EntityManager, Orm } from "@pulsegate/db";
import { MISSED_HEARTBEAT } from "../incidents/incident-text.ts";
import { writeIncidentAction } from "../incidents/write-incident-action.ts";
import { type MonitorRow, monitorFromRow } from "../monitors/monitor-row.ts";

export const SWEEP_BATCH = 200;

/** The due monitors, through the partial index on next_due_at (monitors_due_idx); `?` is the batch size. */
export const SELECT_DUE_MONITORS = `
  SELECT id, (monitoring_active AND status = 'up') AS eligible
    FROM monitors.monitors
   WHERE next_due_at <= now()
   ORDER BY next_due_at
   LIMIT ?
   FOR UPDATE SKIP LOCKED`;

/**
 * One sweep batch (DESIGN §5 "missed heartbeat"): every monitor whose
 * next_due_at has passed goes down with reason `missed heartbeat`, and its
 * incident is raised through the outbox, in one transaction. next_due_at is
 * set only while a monitored monitor is up, so the partial index on it holds
 * the due monitors alone and healthy ones cost nothing. SKIP LOCKED lets
 * replicas sweep side by side without taking a monitor twice; clearing
 * next_due_at in the same statement keeps a later sweep from taking it again.
 * Returns how many monitors went down and whether the batch was full.
 */
export async function sweepMissedHeartbeats(orm: Orm, now: () => Date = () => new Date()) {
  return (orm.em.fork() as EntityManager).transactional(async (tx) => {
    const rows = await tx.execute<(MonitorRow & { swept: boolean })[]>(
      `WITH due AS (${SELECT_DUE_MONITORS})
       UPDATE monitors.monitors m
          SET next_due_at = NULL,
              status = CASE WHEN due.eligible THEN 'down' ELSE m.status END,
              last_reason = CASE WHEN due.eligible THEN ? ELSE m.last_reason END,
              incident_open = m.incident_open OR due.eligible,
              updated_at = now()
         FROM due
        WHERE m.id = due.id
       RETURNING m.*, due.eligible AS swept`,
      [SWEEP_BATCH, MISSED_HEARTBEAT],
    );
    const swept = rows.filter((row) => row.swept).map(monitorFromRow);
    for (const monitor of swept) {
      await writeIncidentAction(
        tx as EntityManager,
        "raise",
        monitor,
        { reason: MISSED_HEARTBEAT, groupKey: null, metadata: null, lastPingAt: monitor.lastPingAt },
        now(),
      );
    }
    return { down: swept, full: rows.length === SWEEP_BATCH };
  });
}
