import { monthUsage } from "@pulsegate/contract/quota";
import { type PgPool, run, statement } from "@pulsegate/db";

const READ_USAGE = statement(
  "monitors-read-heartbeat-usage",
  "SELECT used FROM monitors.heartbeat_quota_usage WHERE team_id = $1 AND month = $2::date",
);

/** What a team has used of its heartbeat quota in the UTC month of `at` (0 before its first ping). */
export function readHeartbeatUsage(
  pool: PgPool,
  teamId: string,
  at: Date = new Date(),
): Promise<{ month: string; used: number }> {
  return monthUsage(at, async (month) => (await run<{ used: number }>(pool, READ_USAGE, [teamId, month]))[0]?.used);
}
