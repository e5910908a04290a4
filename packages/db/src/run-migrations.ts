import pg from "pg";
import type { Orm } from "./open-orm.ts";

/**
 * Applies pending migrations of the ORM's schema. A session advisory lock,
 * held on a connection of its own and keyed by the schema, serialises
 * replicas (and the migrate Job) that start together.
 */
export async function runMigrations(orm: Orm, schema: string): Promise<string[]> {
  const lock = new pg.Client({ connectionString: orm.config.get("clientUrl"), connectionTimeoutMillis: 5_000 });
  await lock.connect();
  const lockKey = `pulsegate:migrations:${schema}`;
  try {
    await lock.query("SELECT pg_advisory_lock(hashtext($1))", [lockKey]);
    await lock.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(schema)}`);
    const applied = await orm.migrator.up();
    return applied.map((migration) => migration.name);
  } finally {
    await lock.query("SELECT pg_advisory_unlock(hashtext($1))", [lockKey]).catch(() => undefined);
    await lock.end();
  }
}
