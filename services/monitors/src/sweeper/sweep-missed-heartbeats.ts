import type { Orm } from "@pulsegate/db";
import { incidentActionRow } from "../incidents/incident-action-row.ts";
import { MISSED_HEARTBEAT, RUN_DID_NOT_FINISH } from "../incidents/incident-text.ts";
import { insertIncidentActions } from "../incidents/insert-incident-actions.ts";
import { monitorFromRow } from "../monitors/monitor-row.ts";
import { markDueMonitorsDown } from "./mark-due-monitors-down.ts";

export const SWEEP_BATCH = 200;

/**
 * One sweep batch (DESIGN §5 "missed heartbeat"): every monitor whose
 * next_due_at has passed goes down with reason `missed heartbeat` (or, when a
 * start ping opened a run that has not finished, `run did not finish`), and its
 * incident is raised through the outbox, in one transaction. Due monitors are
 * found through the queue of due checks (migration 0010), which holds a check
 * only while a monitor has a due time, so healthy ones cost nothing until
 * their check comes; one that came early (pings moved the due time on) is
 * queued again at the due time. SKIP LOCKED lets replicas sweep side by side
 * without taking a monitor twice; clearing next_due_at in the same statement
 * keeps a later sweep from taking it again. Returns the monitors that went
 * down and whether the batch was full (more checks may be due).
 */
export async function sweepMissedHeartbeats(orm: Orm, now: () => Date = () => new Date()) {
  return orm.em.fork().transactional(async (tx) => {
    const { missed, checksTaken } = await markDueMonitorsDown(tx, {
      limit: SWEEP_BATCH,
      reasonRunOpen: RUN_DID_NOT_FINISH,
      reason: MISSED_HEARTBEAT,
    });
    const swept = missed.filter((row) => row.swept).map(monitorFromRow);
    const at = now();
    const actions = swept.map((monitor) =>
      incidentActionRow(
        "raise",
        monitor,
        { reason: monitor.lastReason, groupKey: null, metadata: null, lastPingAt: monitor.lastPingAt },
        at,
      ),
    );
    // Every raise of the batch in one statement.
    if (actions.length > 0) await insertIncidentActions(tx, actions);
    return { down: swept, full: checksTaken === SWEEP_BATCH };
  });
}
