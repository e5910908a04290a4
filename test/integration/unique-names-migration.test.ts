// Upgrading a database whose teams, keys, webhooks, channels, silences and monitors already hold
// duplicate names: the migration keeps the oldest row's name, renames the others `<name> (<id>)`,
// counts only live rows (deleted channels, revoked keys), and the unique indexes then hold.
import { type OpenOrmOptions, openOrm, runMigrations } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALERTS_SCHEMA, openAlertsDatabase } from "../../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { migrations as alertsMigrations } from "../../services/alerts/src/migrations/index.ts";
import { AUTH_SCHEMA, openAuthDatabase } from "../../services/auth/src/app.ts";
import { loadAuthConfig } from "../../services/auth/src/config.ts";
import { migrations as authMigrations } from "../../services/auth/src/migrations/index.ts";
import { MONITORS_SCHEMA, openMonitorsDatabase } from "../../services/monitors/src/app.ts";
import { loadMonitorsConfig } from "../../services/monitors/src/config.ts";
import { migrations as monitorsMigrations } from "../../services/monitors/src/migrations/index.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";

const server = TEST_DATABASE_SERVER;
const databaseName = `pulsegate_it_unique_names_${process.pid}`;
const url = `${server}/${databaseName}`;
const log = createLogger("test", "silent");
let db: pg.Pool;

/** Applies a schema's migrations up to (not including) the one named `before`. */
async function migrateUpTo(schema: string, list: OpenOrmOptions["migrations"], before: string) {
  const index = list.findIndex((migration) => migration.name === before);
  expect(index).toBeGreaterThan(0);
  const orm = await openOrm({ url, schema, entities: [], migrations: list.slice(0, index) });
  await runMigrations(orm, schema);
  await orm.close();
}

async function names(sql: string): Promise<string[]> {
  return (await db.query<{ name: string }>(sql)).rows.map((row) => row.name);
}

const KEK = Buffer.alloc(32, 7).toString("base64");
const LONG = "x".repeat(200);

beforeAll(async () => {
  await recreateDatabase(databaseName, server);
  db = new pg.Pool({ connectionString: url, max: 2 });
});

afterAll(async () => {
  await db?.end();
  await dropDatabase(databaseName, server);
});

describe("unique names over existing duplicates", () => {
  it("renames auth's duplicate teams and live keys, then refuses new duplicates", async () => {
    await migrateUpTo(AUTH_SCHEMA, authMigrations, "0008-unique-names");
    const team = (id: string, name: string, at: string) =>
      db.query(
        `INSERT INTO auth.teams (id, name, alert_quota_monthly, heartbeat_quota_monthly, created_at, updated_at,
                                 secret_fingerprint, secret_sealed, secret_rotated_at)
         VALUES ($1, $2, 0, 0, $3, $3, repeat('a', 64), '\\x00', $3)`,
        [id, name, at],
      );
    await team("team_b", "Payments", "2026-01-02T00:00:00Z");
    await team("team_a", "Payments", "2026-01-01T00:00:00Z");
    await team("team_c", LONG, "2026-01-01T00:00:00Z");
    await team("team_d", LONG, "2026-01-03T00:00:00Z");
    const key = (id: string, name: string, revoked: boolean) =>
      db.query(
        `INSERT INTO auth.api_keys (id, team_id, name, scope, token_prefix, token_hash, created_at, revoked_at)
         VALUES ($1, 'team_a', $2, 'read', 'pgk_12345678', decode(repeat('00', 32), 'hex'), now(), $3)`,
        [id, name, revoked ? new Date() : null],
      );
    await key("key_1", "CI", false);
    await key("key_2", "CI", true);
    await key("key_3", "CI", false);

    const orm = await openAuthDatabase(loadAuthConfig({ DATABASE_URL: url, DB_POOL_MAX: "2", SECRET_KEK: KEK }), log);
    await orm.close();

    expect(await names("SELECT name FROM auth.teams ORDER BY id")).toEqual([
      "Payments",
      "Payments (team_b)",
      LONG,
      `${"x".repeat(200 - "team_d".length - 3)} (team_d)`,
    ]);
    expect(await names("SELECT name FROM auth.api_keys ORDER BY id")).toEqual(["CI", "CI", "CI (key_3)"]);
    await expect(team("team_e", "Payments", "2026-02-01T00:00:00Z")).rejects.toMatchObject({
      code: "23505",
      constraint: "teams_name_key",
    });
    // A revoked key's name is free again; a live one's is not.
    await expect(key("key_4", "CI", true)).resolves.toMatchObject({ rowCount: 1 });
    await expect(key("key_5", "CI", false)).rejects.toMatchObject({ constraint: "api_keys_team_name_key" });
  });

  it("renames alerts' duplicate webhooks, live channels and silences", async () => {
    await migrateUpTo(ALERTS_SCHEMA, alertsMigrations, "0018-unique-names-and-team-deletions");
    for (const [id, team, at] of [
      ["wh_2", "team_a", "2026-01-02T00:00:00Z"],
      ["wh_1", "team_a", "2026-01-01T00:00:00Z"],
      ["wh_3", "team_b", "2026-01-03T00:00:00Z"],
    ] as const) {
      await db.query(
        `INSERT INTO alerts.webhooks (id, team_id, webhook_url, name, default_severity, enabled, rate_limit_per_minute,
                                      reopen_window_seconds, created_at, updated_at)
         VALUES ($1, $2, $1, 'CI', 'sev2', true, 60, 0, $3, $3)`,
        [id, team, at],
      );
    }
    for (const [id, deleted] of [
      ["ch_1", true],
      ["ch_2", false],
      ["ch_3", false],
    ] as const) {
      await db.query(
        `INSERT INTO alerts.channels (id, team_id, kind, name, enabled, created_at, updated_at, deleted_at,
                                      credentials_sealed, masked_url)
         VALUES ($1, 'team_a', 'slack', 'Ops', true, now(), now(), $2, '\\x00', 'https://…')`,
        [id, deleted ? new Date() : null],
      );
    }
    for (const id of ["sil_1", "sil_2"]) {
      await db.query(
        `INSERT INTO alerts.silences (id, team_id, name, starts_at, ends_at, matchers, created_at)
         VALUES ($1, 'team_a', 'Deploy', now(), now() + interval '1 hour', '{}', now())`,
        [id],
      );
    }
    const orm = await openAlertsDatabase(
      loadAlertsConfig({ DATABASE_URL: url, DB_POOL_MAX: "2", SECRET_KEK: KEK }),
      log,
    );
    await orm.close();
    expect(await names("SELECT name FROM alerts.webhooks ORDER BY id")).toEqual(["CI", "CI (wh_2)", "CI"]);
    expect(await names("SELECT name FROM alerts.channels ORDER BY id")).toEqual(["Ops", "Ops", "Ops (ch_3)"]);
    expect((await names("SELECT name FROM alerts.silences ORDER BY id")).sort()).toEqual(["Deploy", "Deploy (sil_2)"]);
  });

  it("renames a team's duplicate monitors", async () => {
    await migrateUpTo(MONITORS_SCHEMA, monitorsMigrations, "0009-deletes-and-unique-names");
    for (const [id, at] of [
      ["mon_2", "2026-01-02T00:00:00Z"],
      ["mon_1", "2026-01-01T00:00:00Z"],
    ] as const) {
      await db.query(
        `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                        grace_seconds, severity, reopen_window_seconds, created_at, updated_at)
         VALUES ($1, 'team_a', $1, 'Nightly backup', 'idle', false, 300, 60, 'sev2', 0, $2, $2)`,
        [id, at],
      );
    }
    const orm = await openMonitorsDatabase(loadMonitorsConfig({ DATABASE_URL: url, DB_POOL_MAX: "2" }), log);
    await orm.close();
    expect(await names("SELECT name FROM monitors.monitors ORDER BY id")).toEqual([
      "Nightly backup",
      "Nightly backup (mon_2)",
    ]);
  });
});
