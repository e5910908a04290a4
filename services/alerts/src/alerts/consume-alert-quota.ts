import { type EntityManager, executeWithAsyncCommit } from "@pulsegate/db";

function monthOf(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, "0")}-01`;
}

/**
 * Reserves one created or reopened alert of the team's quota for the UTC month
 * of `at`, atomically; false (and nothing counted) when the quota is used up.
 * A quota of 0 means unlimited, but usage is still counted. The usage row is
 * one per team, so the reservation commits on its own without waiting for
 * the WAL flush (see executeWithAsyncCommit): the row is locked for one
 * statement, not for every alert's fsync.
 */
export async function reserveAlertQuota(em: EntityManager, teamId: string, quota: number, at: Date): Promise<boolean> {
  const rows = await executeWithAsyncCommit<{ used: number }[]>(
    em,
    `INSERT INTO alerts.alert_quota_usage (team_id, month, used) VALUES (?, ?::date, 1)
     ON CONFLICT (team_id, month) DO UPDATE SET used = alert_quota_usage.used + 1
       WHERE ? = 0 OR alert_quota_usage.used < ?
     RETURNING used`,
    [teamId, monthOf(at), quota, quota],
  );
  return rows.length > 0;
}

/** Gives a reservation back when the trigger created nothing after all. */
export async function refundAlertQuota(em: EntityManager, teamId: string, at: Date): Promise<void> {
  await executeWithAsyncCommit(
    em,
    "UPDATE alerts.alert_quota_usage SET used = used - 1 WHERE team_id = ? AND month = ?::date AND used > 0",
    [teamId, monthOf(at)],
  );
}
