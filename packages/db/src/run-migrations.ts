import pg from "pg";
import type { Orm } from "./open-orm.ts";

/**
 * Applies pending migrations of the ORM's schema. A session advisory lock,
 * held on a connection of its own and keyed by the schema, serialises
 * replicas (and the migrate Job) that start together. `onPending` hears which
 * are about to be applied (none: not called), so a slow first start can say so.
 */
export async function runMigrations(
  orm: Orm,
  schema: string,
  onPending?: (names: string[]) => void,
): Promise<string[]> {
  const lock = new pg.Client({ connectionString: orm.config.get("clientUrl"), connectionTimeoutMillis: 5_000 });
  await lock.connect();
  const lockKey = `pulsegate:migrations:${schema}`;
  try {
    await lock.query("SELECT pg_advisory_lock(hashtext($1))", [lockKey]);
    await lock.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(schema)}`);
    if (onPending) {
      const pending = await orm.migrator.getPending();
      if (pending.length > 0) onPending(pending.map((migration) => migration.name));
    }
    const applied = await orm.migrator.up();
    return applied.map((migration) => migration.name);
  } finally {
    await lock.query("SELECT pg_advisory_unlock(hashtext($1))", [lockKey]).catch(() => undefined);
    await lock.end();
  }
}
