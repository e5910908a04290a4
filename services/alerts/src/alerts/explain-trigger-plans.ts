import type { PgClient, Statement } from "@pulsegate/db";
import { CLASSIFY_KEYS, LOCK_AND_FOLD, WRITE_BATCH } from "./batch-statements.ts";

/**
 * What the inserts of the write cause besides: PostgreSQL's foreign-key check
 * of every occurrence and outbox row against its alert (a cached plan too).
 */
const FOREIGN_KEY_CHECK = {
  name: "alerts-trigger-fk-check",
  text: "SELECT 1 FROM ONLY alerts.alerts x WHERE id OPERATOR(pg_catalog.=) $1::text FOR KEY SHARE OF x",
};

export const TRIGGER_STATEMENTS: readonly Statement[] = [LOCK_AND_FOLD, CLASSIFY_KEYS, WRITE_BATCH, FOREIGN_KEY_CHECK];

/**
 * The generic plan of every statement of the trigger path, as the trigger
 * pool's connections would make it now (run it on one of them: their session
 * settings shape the plans). Nothing is executed.
 */
export async function explainTriggerPlans(client: PgClient): Promise<Map<string, string>> {
  const plans = new Map<string, string>();
  const prepared: string[] = [];
  await client.query("BEGIN");
  try {
    await client.query("SET LOCAL plan_cache_mode = force_generic_plan");
    for (const [index, statement] of TRIGGER_STATEMENTS.entries()) {
      const name = `explain_trigger_${index}`;
      const parameters = Math.max(0, ...[...statement.text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
      await client.query(`PREPARE ${name} AS ${statement.text}`);
      prepared.push(name);
      const args = parameters > 0 ? `(${Array.from({ length: parameters }, () => "NULL").join(", ")})` : "";
      const result = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN EXECUTE ${name}${args}`);
      plans.set(statement.name, result.rows.map((row) => row["QUERY PLAN"]).join("\n"));
    }
  } finally {
    await client.query("ROLLBACK");
    // Prepared statements outlive a rollback.
    for (const name of prepared) await client.query(`DEALLOCATE ${name}`);
  }
  return plans;
}

/**
 * Lines of those plans that read a table of the trigger path other than by a
 * bounded look-up: a sequential scan, an index read without an index
 * condition (all of it), or the team's alert list walked
 * (alerts_team_created_idx) to find one alert.
 */
export function unboundedScans(plans: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const table = /on (alerts|occurrences|outbox|alert_quota_usage)\b/;
  for (const [name, plan] of plans) {
    const lines = plan.split("\n");
    lines.forEach((line, index) => {
      if (/alerts_team_created_idx/.test(line) || (/Seq Scan /.test(line) && table.test(line))) {
        problems.push(`${name}: ${line.trim()}`);
      } else if (/(Index|Index Only) Scan (Backward )?using \S+ on /.test(line) && table.test(line)) {
        // The node's own details follow, indented, until the next node ("->").
        const details = [];
        for (const next of lines.slice(index + 1)) {
          if (next.includes("->")) break;
          details.push(next);
        }
        if (!details.some((detail) => detail.includes("Index Cond:")))
          problems.push(`${name}: ${line.trim()} (no Index Cond)`);
      }
    });
  }
  return problems;
}
