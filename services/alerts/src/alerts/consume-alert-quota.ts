import type { EntityManager } from "@pulsegate/db";

/**
 * Counts one created or reopened alert against the team's quota for the UTC
 * month of `at`, atomically; false (and nothing counted) when the quota is
 * used up. A quota of 0 means unlimited, but usage is still counted.
 */
export async function consumeAlertQuota(tx: EntityManager, teamId: string, quota: number, at: Date): Promise<boolean> {
  const month = `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, "0")}-01`;
  const rows = await tx.execute<{ used: number }[]>(
    `INSERT INTO alerts.alert_quota_usage (team_id, month, used) VALUES (?, ?::date, 1)
     ON CONFLICT (team_id, month) DO UPDATE SET used = alert_quota_usage.used + 1
       WHERE ? = 0 OR alert_quota_usage.used < ?
     RETURNING used`,
    [teamId, month, quota, quota],
  );
  return rows.length > 0;
}
