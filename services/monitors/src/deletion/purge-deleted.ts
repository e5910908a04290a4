import {
  type BatchLimits,
  countedDelete,
  deleteInBatchesInOrder,
  type Orm,
  TEAM_PURGE_SETTLE_SECONDS,
} from "@pulsegate/db";

export const MONITORS_PURGE_LOCK = "pulsegate:purge:monitors";

/** A deleted team's live monitors become deleted monitors (no longer watched), a batch at a time. */
const MARK_TEAM_MONITORS = `
  WITH doomed AS (
    SELECT m.id, d.deleted_at
      FROM monitors.team_deletions d
      JOIN monitors.monitors m ON m.team_id = d.team_id AND m.deleted_at IS NULL
     WHERE d.purged_at IS NULL
     LIMIT ?
       FOR UPDATE OF m
  ), marked AS (
    UPDATE monitors.monitors m
       SET deleted_at = doomed.deleted_at, next_due_at = NULL, run_started_at = NULL
      FROM doomed
     WHERE m.id = doomed.id
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM marked`;

/** Pings of deleted monitors, through monitors_deleted_idx and pings_monitor_idx. */
const DELETE_PINGS = `
  WITH doomed AS (
    SELECT p.id
      FROM monitors.monitors m
     CROSS JOIN LATERAL (SELECT k.id FROM monitors.pings k WHERE k.monitor_id = m.id LIMIT ?) p
     WHERE m.deleted_at IS NOT NULL
     LIMIT ?
  ), deleted AS (
    DELETE FROM monitors.pings p USING doomed WHERE p.id = doomed.id RETURNING 1
  )
  SELECT count(*)::int AS n FROM deleted`;

/** Incident actions of deleted monitors, done or not: a deleted monitor raises and resolves nothing more. */
const DELETE_INCIDENT_ACTIONS = `
  WITH doomed AS (
    SELECT a.id
      FROM monitors.monitors m
     CROSS JOIN LATERAL (SELECT k.id FROM monitors.incident_actions k WHERE k.monitor_id = m.id LIMIT ?) a
     WHERE m.deleted_at IS NOT NULL
     LIMIT ?
  ), deleted AS (
    DELETE FROM monitors.incident_actions a USING doomed WHERE a.id = doomed.id RETURNING 1
  )
  SELECT count(*)::int AS n FROM deleted`;

/** Deleted monitors with nothing left that refers to them. */
const DELETE_MONITORS = `
  WITH doomed AS (
    SELECT m.id
      FROM monitors.monitors m
     WHERE m.deleted_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM monitors.pings p WHERE p.monitor_id = m.id)
       AND NOT EXISTS (SELECT 1 FROM monitors.incident_actions a WHERE a.monitor_id = m.id)
     LIMIT ?
       FOR UPDATE OF m SKIP LOCKED
  ), deleted AS (
    DELETE FROM monitors.monitors m USING doomed WHERE m.id = doomed.id RETURNING 1
  )
  SELECT count(*)::int AS n FROM deleted`;

/** A deleted team's idempotency keys and heartbeat usage rows (one a month). */
const DELETE_TEAM_LEFTOVERS = `
  WITH keys AS (
    SELECT k.team_id, k.key
      FROM monitors.team_deletions d
      JOIN monitors.idempotency_keys k ON k.team_id = d.team_id
     WHERE d.purged_at IS NULL
     LIMIT ?
  ), deleted_keys AS (
    DELETE FROM monitors.idempotency_keys k USING keys WHERE k.team_id = keys.team_id AND k.key = keys.key RETURNING 1
  ), usage AS (
    SELECT u.team_id, u.month
      FROM monitors.team_deletions d
      JOIN monitors.heartbeat_quota_usage u ON u.team_id = d.team_id
     WHERE d.purged_at IS NULL
     LIMIT ?
  ), deleted_usage AS (
    DELETE FROM monitors.heartbeat_quota_usage u USING usage
     WHERE u.team_id = usage.team_id AND u.month = usage.month RETURNING 1
  )
  SELECT (SELECT count(*) FROM deleted_keys)::int + (SELECT count(*) FROM deleted_usage)::int AS n`;

/** A deleted team with no monitor row left, past the settle time, is finished; its record stays. */
const FINISH_TEAM_DELETIONS = `
  WITH finished AS (
    UPDATE monitors.team_deletions d SET purged_at = now()
     WHERE d.purged_at IS NULL
       AND d.deleted_at < now() - make_interval(secs => ?)
       AND NOT EXISTS (SELECT 1 FROM monitors.monitors m WHERE m.team_id = d.team_id)
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM finished`;

export type PurgeResult = {
  skipped: boolean;
  monitorsMarked: number;
  pings: number;
  incidentActions: number;
  monitors: number;
  leftovers: number;
  teamsFinished: number;
  more: boolean;
};

/**
 * One purge run (docs/decisions.md, "Deleting"): deleted teams' monitors marked deleted, then the
 * pings and incident actions of deleted monitors, the monitors themselves, the teams' idempotency
 * keys and usage rows, and finally the teams that have nothing left — each step in batches of its
 * own short transaction (deleteInBatches), so a big team never holds a lock long or slows another
 * team, and a run stops at the batch cap to go on at once in the next.
 */
export async function purgeDeleted(
  orm: Orm,
  limits: BatchLimits & { settleSeconds?: number } = {},
): Promise<PurgeResult> {
  const settle = limits.settleSeconds ?? TEAM_PURGE_SETTLE_SECONDS;
  const { skipped, deleted, more } = await deleteInBatchesInOrder(
    orm,
    MONITORS_PURGE_LOCK,
    [
      countedDelete(MARK_TEAM_MONITORS, (size) => [size]),
      countedDelete(DELETE_PINGS, (size) => [size, size]),
      countedDelete(DELETE_INCIDENT_ACTIONS, (size) => [size, size]),
      countedDelete(DELETE_MONITORS, (size) => [size]),
      countedDelete(DELETE_TEAM_LEFTOVERS, (size) => [size, size]),
      countedDelete(FINISH_TEAM_DELETIONS, () => [settle]),
    ],
    limits,
  );
  const [monitorsMarked = 0, pings = 0, incidentActions = 0, monitors = 0, leftovers = 0, teamsFinished = 0] = deleted;
  return { skipped, monitorsMarked, pings, incidentActions, monitors, leftovers, teamsFinished, more };
}
