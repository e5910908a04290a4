import type { Severity } from "@pulsegate/contract/vocabulary";
import type { EntityManager } from "@pulsegate/db";

/**
 * The incident outbox as a queue (`monitors.incident_actions`): actions are leased by
 * `claimIncidentActions`, then completed, put back for a retry, or set aside when alerts refuses it. Only the oldest pending
 * action of a monitor is claimable, so a monitor's raises and resolves leave in order, and SKIP
 * LOCKED lets replicas share the work.
 */

/** A claimed `monitors.incident_actions` row (RETURNING *), as the worker reads it. */
export type ClaimedIncidentAction = {
  id: string;
  monitor_id: string;
  team_id: string;
  kind: "raise" | "resolve";
  title: string;
  description: string;
  severity: Severity;
  group_key: string;
  metadata: unknown;
  reopen_window_seconds: number;
  alert_quota_monthly: number;
  repeat_interval_seconds: number | null;
  attempts: number;
};

/**
 * Leases due actions (the oldest pending of each monitor) and counts the attempt, or only the
 * action given if it is one of them. `?`: lease seconds, the action id or null (twice), batch size.
 */
export const CLAIM_INCIDENT_ACTIONS = `UPDATE monitors.incident_actions
          SET lease_until = now() + make_interval(secs => ?), attempts = attempts + 1
        WHERE id IN (
          SELECT a.id FROM monitors.incident_actions a
           WHERE a.done_at IS NULL AND a.next_attempt_at <= now() AND (a.lease_until IS NULL OR a.lease_until < now())
             AND NOT EXISTS (SELECT 1 FROM monitors.incident_actions b
                              WHERE b.monitor_id = a.monitor_id AND b.done_at IS NULL AND b.id < a.id)
             AND (?::bigint IS NULL OR a.id = ?::bigint)
           ORDER BY a.id LIMIT ? FOR UPDATE SKIP LOCKED)
        RETURNING *`;

/** Whether an action is done; no row when it is gone (pruned). */
export const SELECT_INCIDENT_ACTION_DONE =
  "SELECT done_at IS NOT NULL AS done FROM monitors.incident_actions WHERE id = ?::bigint";

/** The lease goes back and the action waits `?` seconds; its last error is kept. */
export const RETRY_INCIDENT_ACTION = `UPDATE monitors.incident_actions
              SET lease_until = NULL, next_attempt_at = now() + make_interval(secs => ?), last_error = ?
            WHERE id = ?`;

/** Done without effect: alerts refused it as invalid (`?`: the reason, codes only). */
export const SET_ASIDE_INCIDENT_ACTION = `UPDATE monitors.incident_actions
              SET done_at = now(), lease_until = NULL, outcome = 'invalid', last_error = ?
            WHERE id = ? AND done_at IS NULL`;

export const COMPLETE_INCIDENT_ACTION =
  "UPDATE monitors.incident_actions SET done_at = now(), lease_until = NULL, outcome = ?, alert_ids = ?::text[] WHERE id = ?";

/** Keeps the monitor's list of open incident alerts in step: a raise adds the alert once, a resolve removes it. */
export const UPDATE_OPEN_ALERT_IDS = {
  raise: `UPDATE monitors.monitors SET open_alert_ids = CASE WHEN ? = ANY(open_alert_ids) THEN open_alert_ids ELSE array_append(open_alert_ids, ?) END WHERE id = ?`,
  resolve: "UPDATE monitors.monitors SET open_alert_ids = array_remove(open_alert_ids, ?) WHERE id = ?",
} as const;

export function claimIncidentActions(
  em: EntityManager,
  claim: { leaseSeconds: number; onlyId: string | null; limit: number },
): Promise<ClaimedIncidentAction[]> {
  const { leaseSeconds, onlyId, limit } = claim;
  return em.execute<ClaimedIncidentAction[]>(CLAIM_INCIDENT_ACTIONS, [leaseSeconds, onlyId, onlyId, limit]);
}

/** True when done, false while pending, undefined when there is no such action. */
export async function isIncidentActionDone(em: EntityManager, actionId: string): Promise<boolean | undefined> {
  const [row] = await em.execute<{ done: boolean }[]>(SELECT_INCIDENT_ACTION_DONE, [actionId]);
  return row?.done;
}

export async function retryIncidentAction(
  em: EntityManager,
  actionId: string,
  retry: { delaySeconds: number; error: string },
): Promise<void> {
  await em.execute(RETRY_INCIDENT_ACTION, [retry.delaySeconds, retry.error, actionId]);
}

/**
 * Sets an action alerts refused aside: done, outcome `invalid`, the reason kept as its last error.
 * True when this call set it aside; false when it was done already (another replica's lease).
 */
export async function setAsideIncidentAction(em: EntityManager, actionId: string, reason: string): Promise<boolean> {
  const result = await em.execute<{ affectedRows: number }>(SET_ASIDE_INCIDENT_ACTION, [reason, actionId], "run");
  return result.affectedRows > 0;
}

/** Marks the action done with its outcome and alerts, and updates its monitor's open alerts, in one transaction. */
export async function completeIncidentAction(
  em: EntityManager,
  action: Pick<ClaimedIncidentAction, "id" | "kind" | "monitor_id">,
  outcome: string,
  alertIds: string[],
): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute(COMPLETE_INCIDENT_ACTION, [outcome, `{${alertIds.map((id) => `"${id}"`).join(",")}}`, action.id]);
    for (const id of alertIds) {
      const params = action.kind === "raise" ? [id, id, action.monitor_id] : [id, action.monitor_id];
      await tx.execute(UPDATE_OPEN_ALERT_IDS[action.kind], params);
    }
  });
}
