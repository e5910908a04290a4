import { quotaKey, quotaMonth } from "@pulsegate/contract/quota";
import { type PgPool, run, statement } from "@pulsegate/db";
import { type AlertRow, alertFromRow } from "./alert-row.ts";
import { openAlertOfKey, reopenableAlertOfKey } from "./key-lookups.sql.ts";
import { type FoldInput, type FoldResult, type KeyState, keyOf, planBatch, resolveResults } from "./plan-batch.ts";

/**
 * For a dry run: each key's open alert (with its count), or else the newest
 * alert resolved within the first trigger's reopen window, as the classify
 * step of a batch reads them, but without locks. $1..$4 as CLASSIFY_KEYS.
 */
const PREVIEW_KEYS = statement(
  "alerts-trigger-preview-keys",
  `WITH keys AS (
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[])
                   WITH ORDINALITY AS k(team_id, group_key, reopen_window, received_at, ord)
   )
   SELECT k.ord::int AS ord, o.id AS open_id, o.occurrence_count AS open_count, r.alert AS resolved_alert
     FROM keys k
     LEFT JOIN LATERAL (
       ${openAlertOfKey("a.id, a.occurrence_count")}
     ) o ON true
     LEFT JOIN LATERAL (
       ${reopenableAlertOfKey("o.id IS NULL")}
     ) r ON true`,
);

/** This month's alert usage of the given teams, read without locks. */
const PREVIEW_USAGE = statement(
  "alerts-trigger-preview-usage",
  `SELECT u.team_id, to_char(u.month, 'YYYY-MM-DD') AS month, u.used
     FROM alerts.alert_quota_usage u
     JOIN unnest($1::text[], $2::date[]) AS q(team_id, month) ON u.team_id = q.team_id AND u.month = q.month`,
);

/**
 * What foldTriggers would answer for `inputs` now (DESIGN §4 through
 * planBatch, the same decisions), read in two statements and written
 * nowhere. Alerts that would be created get no id (""). Concurrent triggers
 * may of course decide otherwise by the time a real one arrives.
 */
export async function previewFold(pool: PgPool, inputs: FoldInput[]): Promise<FoldResult[]> {
  if (inputs.length === 0) return [];
  const keys = new Map<string, FoldInput>();
  const quotas = new Map<string, { teamId: string; month: string }>();
  for (const input of inputs) {
    if (input.groupKey !== null && !keys.has(keyOf(input.teamId, input.groupKey))) {
      keys.set(keyOf(input.teamId, input.groupKey), input);
    }
    if (input.alertQuotaMonthly > 0) {
      const month = quotaMonth(input.receivedAt);
      quotas.set(quotaKey(input.teamId, month), { teamId: input.teamId, month });
    }
  }
  const firsts = [...keys.values()];
  const [rows, usageRows] = await Promise.all([
    firsts.length === 0
      ? []
      : run<{ ord: number; open_id: string | null; open_count: number | null; resolved_alert: AlertRow | null }>(
          pool,
          PREVIEW_KEYS,
          [
            firsts.map((input) => input.teamId),
            firsts.map((input) => input.groupKey),
            firsts.map((input) => input.reopenWindowSeconds),
            firsts.map((input) => input.receivedAt),
          ],
        ),
    quotas.size === 0
      ? []
      : run<{ team_id: string; month: string; used: number }>(pool, PREVIEW_USAGE, [
          [...quotas.values()].map((quota) => quota.teamId),
          [...quotas.values()].map((quota) => quota.month),
        ]),
  ]);
  const ids = [...keys.keys()];
  const states = new Map<string, KeyState>();
  const countNow = new Map<string, number>();
  for (const row of rows) {
    const id = ids[row.ord - 1] as string;
    if (row.open_id !== null) {
      states.set(id, { kind: "open", alertId: row.open_id });
      countNow.set(row.open_id, row.open_count ?? 0);
    } else if (row.resolved_alert !== null) {
      const alert = alertFromRow(row.resolved_alert);
      states.set(id, { kind: "resolved", alert });
      countNow.set(alert.id, alert.occurrenceCount);
    }
  }
  // A team with a quota and no usage row yet has used none of it.
  const usage = new Map<string, number>([...quotas.keys()].map((key) => [key, 0]));
  for (const row of usageRows) usage.set(quotaKey(row.team_id, row.month), row.used);

  const plan = planBatch(inputs, states, usage, () => "");
  const countAfter = new Map(plan.bumps.map((bump) => [bump.alertId, (countNow.get(bump.alertId) ?? 0) + bump.added]));
  return resolveResults(plan, countAfter);
}
