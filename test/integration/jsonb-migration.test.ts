// Upgrading a database whose json columns hold what jsonb refuses (an escaped
// U+0000, an unpaired surrogate): the migration keeps every row, turns the bad
// escapes into visible text, and the dispatcher can read every event again.
import { type OpenOrmOptions, openOrm, runMigrations } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALERTS_SCHEMA, openAlertsDatabase } from "../../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { migrations as alertsMigrations } from "../../services/alerts/src/migrations/index.ts";
import { expandOutbox } from "../../services/alerts/src/notifications/deliveries/expand-outbox.ts";
import { WebhookSchema } from "../../services/alerts/src/webhooks/webhook.entity.ts";
import { MONITORS_SCHEMA, openMonitorsDatabase } from "../../services/monitors/src/app.ts";
import { loadMonitorsConfig } from "../../services/monitors/src/config.ts";
import { migrations as monitorsMigrations } from "../../services/monitors/src/migrations/index.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";

const server = TEST_DATABASE_SERVER;
const databaseName = `pulsegate_it_jsonb_${process.pid}`;
const url = `${server}/${databaseName}`;
const log = createLogger("test", "silent");
let db: pg.Pool;

/** Applies a schema's migrations up to (not including) the one named `before`. */
async function migrateUpTo(
  schema: string,
  entities: OpenOrmOptions["entities"],
  list: OpenOrmOptions["migrations"],
  before: string,
) {
  const orm = await openOrm({
    url,
    schema,
    entities,
    migrations: list.slice(
      0,
      list.findIndex((migration) => migration.name === before),
    ),
  });
  await runMigrations(orm, schema);
  await orm.close();
}

const POISON = String.raw`{"k":"\u0000","s":"\udfff","ok":"\\u0000 stays text","emoji":"\ud83d\ude00"}`;

beforeAll(async () => {
  await recreateDatabase(databaseName, server);
  db = new pg.Pool({ connectionString: url, max: 2 });
});

afterAll(async () => {
  await db?.end();
  await dropDatabase(databaseName, server);
});

describe("json to jsonb", () => {
  it("keeps alerts' poisoned rows, readable, and lets the dispatcher expand them", async () => {
    await migrateUpTo(ALERTS_SCHEMA, [WebhookSchema], alertsMigrations, "0003-jsonb-and-set-aside");
    await db.query(
      `INSERT INTO alerts.alerts (id, team_id, status, title, severity, occurrence_count, source, source_id, metadata,
                                  first_seen_at, last_seen_at, created_at)
       VALUES ('alert_p', 'team_p', 'open', 't', 'sev2', 1, 'webhook', 'wh', $1::json, now(), now(), now()),
              ('alert_ok', 'team_p', 'open', 't', 'sev2', 1, 'webhook', 'wh', '{"env":"prod"}', now(), now(), now())`,
      [POISON],
    );
    await db.query(
      `INSERT INTO alerts.outbox (team_id, alert_id, event_type, payload, created_at)
       VALUES ('team_p', 'alert_p', 'alert.created', json_build_object('alert', $1::json), now())`,
      [POISON],
    );
    const orm = await openAlertsDatabase(loadAlertsConfig({ DATABASE_URL: url, DB_POOL_MAX: "2" }), log);
    try {
      const types = await db.query<{ table_name: string; data_type: string }>(
        `SELECT table_name, data_type FROM information_schema.columns
          WHERE table_schema = 'alerts' AND column_name IN ('metadata', 'payload') ORDER BY table_name`,
      );
      expect(types.rows.map((row) => row.data_type)).toEqual(["jsonb", "jsonb", "jsonb"]);
      const { rows } = await db.query<{ id: string; k: string; s: string; ok: string; env: string | null }>(
        `SELECT id, metadata->>'k' AS k, metadata->>'s' AS s, metadata->>'ok' AS ok, metadata->>'env' AS env
           FROM alerts.alerts ORDER BY id`,
      );
      expect(rows).toEqual([
        { id: "alert_ok", k: null, s: null, ok: null, env: "prod" },
        { id: "alert_p", k: String.raw`\u0000`, s: String.raw`\udfff`, ok: String.raw`\u0000 stays text`, env: null },
      ]);
      expect(await expandOutbox(orm, { batchSize: 10, maxAttempts: 3, log })).toBe(1);
    } finally {
      await orm.close();
    }
  });

  it("converts monitors' pings and incident actions the same way", async () => {
    await migrateUpTo(MONITORS_SCHEMA, [], monitorsMigrations, "0003-jsonb");
    await db.query(
      `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                      grace_seconds, severity, reopen_window_seconds, alert_quota_monthly,
                                      created_at, updated_at)
       VALUES ('mon_p', 'team_p', 'tok', 'm', 'up', true, 60, 60, 'sev2', 3600, 0, now(), now())`,
    );
    await db.query(
      `INSERT INTO monitors.pings (ping_key, monitor_id, team_id, status, metadata, method, received_at, recorded_at, spooled)
       VALUES (gen_random_uuid(), 'mon_p', 'team_p', 'down', $1::json, 'POST', now(), now(), false)`,
      [POISON],
    );
    const orm = await openMonitorsDatabase(loadMonitorsConfig({ DATABASE_URL: url, DB_POOL_MAX: "2" }), log);
    try {
      const { rows } = await db.query<{ k: string; type: string }>(
        "SELECT metadata->>'k' AS k, pg_typeof(metadata)::text AS type FROM monitors.pings",
      );
      expect(rows).toEqual([{ k: String.raw`\u0000`, type: "jsonb" }]);
    } finally {
      await orm.close();
    }
  });
});
