// The trigger path's statements are prepared once per connection and keep
// their generic plans; on a machine without autovacuum the statistics may be
// those of a nearly empty alerts table while it holds thousands of rows of one
// team. Every statement must still look alerts up by bounded index conditions
// (checked on the plans, not by timing). trigger-at-scale.ts checks the same at
// a million rows.
import type { Orm, PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explainTriggerPlans, unboundedScans } from "../../services/alerts/src/alerts/explain-trigger-plans.ts";
import { foldTriggers } from "../../services/alerts/src/alerts/fold-triggers.ts";
import { OpenKeys } from "../../services/alerts/src/alerts/open-keys.ts";
import { openAlertsDatabase, openTriggerPool } from "../../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";

const databaseName = `pulsegate_it_trigger_plans_${process.pid}`;
const config = loadAlertsConfig({ DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`, DB_POOL_MAX: "2" });

let orm: Orm;
let pool: PgPool;

beforeAll(async () => {
  await recreateDatabase(databaseName);
  orm = await openAlertsDatabase(config, createLogger("test", "silent"));
  pool = openTriggerPool(config);
});

afterAll(async () => {
  await pool?.end();
  await orm?.close();
});

describe("trigger statement plans", () => {
  it("stay bounded look-ups when the statistics describe a nearly empty table", async () => {
    const trigger = (groupKey: string | null) => ({
      teamId: "team_plans",
      source: "webhook" as const,
      sourceId: "wh_plans",
      title: "Plans",
      description: "",
      severity: "sev2" as const,
      metadataJson: null,
      metadata: null,
      groupKey,
      reopenWindowSeconds: 3_600,
      alertQuotaMonthly: 10_000,
      receivedAt: new Date(),
    });
    await foldTriggers(pool, [trigger("first")]);
    await pool.query("VACUUM ANALYZE alerts.alerts, alerts.occurrences, alerts.outbox, alerts.alert_quota_usage");
    const insert = (from: number, to: number) =>
      pool.query(
        `INSERT INTO alerts.alerts (id, team_id, status, group_key, title, severity, occurrence_count, source,
                                    source_id, first_seen_at, last_seen_at, resolved_at, created_at)
         SELECT 'alert_plans_' || n, 'team_plans', CASE WHEN n % 3 = 0 THEN 'open' ELSE 'resolved' END, 'key-' || n,
                'Plans', 'sev2', 1, 'webhook', 'wh_plans', now(), now(),
                CASE WHEN n % 3 = 0 THEN NULL ELSE now() END, now()
           FROM generate_series($1::int, $2::int) AS n`,
        [from, to],
      );
    const problems = async () => {
      const client = await pool.connect();
      try {
        const plans = await explainTriggerPlans(client);
        expect([...plans.keys()]).toHaveLength(4);
        expect(plans.get("alerts-trigger-classify")).toMatch(/alerts_one_open_per_key[\s\S]*Index Cond/);
        return unboundedScans(plans);
      } finally {
        client.release();
      }
    };
    // A few rows more than the statistics know, as when the first batches make the connections' plans...
    await insert(1, 40);
    expect(await problems()).toEqual([]);
    // ...which must still be right once the team holds thousands, some resolved.
    await insert(41, 5000);
    expect(await problems()).toEqual([]);
    // The pool's connections still run the statements afterwards (nothing left prepared in their way).
    const openKeys = new OpenKeys();
    expect(await foldTriggers(pool, [trigger("key-3"), trigger("key-1"), trigger(null)], { openKeys })).toEqual([
      { outcome: "occurrence_added", alertId: "alert_plans_3", occurrenceCount: 2 },
      { outcome: "reopened", alertId: "alert_plans_1", occurrenceCount: 2 },
      { outcome: "created", alertId: expect.any(String), occurrenceCount: 1 },
    ]);
  });
});
