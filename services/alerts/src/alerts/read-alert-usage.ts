import { monthUsage } from "@pulsegate/contract/quota";
import { type PgPool, run, statement } from "@pulsegate/db";

const READ_USAGE = statement(
  "alerts-read-quota-usage",
  "SELECT used FROM alerts.alert_quota_usage WHERE team_id = $1 AND month = $2::date",
);

/** What a team has used of its alert quota in the UTC month of `at` (0 before its first alert). */
export function readAlertUsage(
  pool: PgPool,
  teamId: string,
  at: Date = new Date(),
): Promise<{ month: string; used: number }> {
  return monthUsage(at, async (month) => (await run<{ used: number }>(pool, READ_USAGE, [teamId, month]))[0]?.used);
}
