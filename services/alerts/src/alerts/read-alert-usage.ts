import { type PgPool, run, statement } from "@pulsegate/db";
import { quotaMonth } from "@pulsegate/quota";

const READ_USAGE = statement(
  "alerts_read_quota_usage",
  "SELECT used FROM alerts.alert_quota_usage WHERE team_id = $1 AND month = $2::date",
);

/** What a team has used of its alert quota in the UTC month of `at` (0 before its first alert). */
export async function readAlertUsage(
  pool: PgPool,
  teamId: string,
  at: Date = new Date(),
): Promise<{ month: string; used: number }> {
  const month = quotaMonth(at);
  const rows = await run<{ used: number }>(pool, READ_USAGE, [teamId, month]);
  return { month, used: rows[0]?.used ?? 0 };
}
