// A service started with MIGRATE_ON_START=false reads which of its migrations the schema lacks
// (MikroORM's mikro_orm_migrations table) without changing anything, and waits until none does.
import { awaitMigrations, pendingMigrations } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALERTS_SCHEMA, openAlertsDatabase } from "../../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { migrations } from "../../services/alerts/src/migrations/index.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";

const databaseName = `pulsegate_it_pending_${process.pid}`;
const url = `${TEST_DATABASE_SERVER}/${databaseName}`;
const names = migrations.map((migration) => migration.name);
const last = names.at(-1) as string;
let db: pg.Pool;

beforeAll(async () => {
  await recreateDatabase(databaseName);
  db = new pg.Pool({ connectionString: url, max: 2 });
});

afterAll(async () => {
  await db?.end();
  await dropDatabase(databaseName);
});

const schemaExists = async () =>
  (await db.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [ALERTS_SCHEMA])).rowCount === 1;

describe("pendingMigrations", () => {
  it("says every migration is missing from a database without the schema (or without the database), creating nothing", async () => {
    expect(await pendingMigrations(url, ALERTS_SCHEMA, names)).toEqual(names);
    expect(await schemaExists()).toBe(false);
    const missing = `${TEST_DATABASE_SERVER}/${databaseName}_never_created`;
    expect(await pendingMigrations(missing, ALERTS_SCHEMA, names)).toEqual(names);
  });

  it("names exactly the ones not recorded, and minds no migration of a later release", async () => {
    const config = loadAlertsConfig({ DATABASE_URL: url, DB_POOL_MAX: "2" });
    const orm = await openAlertsDatabase(config, createLogger("test", "silent"));
    await orm.close();
    expect(await pendingMigrations(url, ALERTS_SCHEMA, names)).toEqual([]);

    await db.query("DELETE FROM alerts.mikro_orm_migrations WHERE name = $1", [last]);
    await db.query("INSERT INTO alerts.mikro_orm_migrations (name) VALUES ('9999-a-later-release')");
    expect(await pendingMigrations(url, ALERTS_SCHEMA, names)).toEqual([last]);
  });
});

describe("awaitMigrations", () => {
  it("logs the missing migrations, looks again, and resolves once they are recorded", async () => {
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const log = createLogger("test", "silent");
    log.warn = ((fields: Record<string, unknown>, message: string) => {
      lines.push({ fields, message });
    }) as typeof log.warn;
    let resolved = false;
    const waiting = awaitMigrations({ url, schema: ALERTS_SCHEMA, names, retryMs: 50 }, log).then(() => {
      resolved = true;
    });
    while (lines.length === 0) await new Promise((done) => setTimeout(done, 20));
    expect(lines[0]).toMatchObject({ fields: { schema: ALERTS_SCHEMA, missing: [last] } });
    expect(lines[0]?.message).toMatch(/lacks migrations this release needs: not ready/);
    expect(resolved).toBe(false);

    await db.query("INSERT INTO alerts.mikro_orm_migrations (name) VALUES ($1)", [last]);
    await waiting;
    // Said once, however many times it looked meanwhile.
    expect(lines).toHaveLength(1);
  });
});
