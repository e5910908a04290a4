import pg from "pg";
import { MIGRATIONS_TABLE } from "./open-orm.ts";

/** 3D000: no such database; 3F000: no such schema; 42P01: no such table. Nothing migrated yet. */
const NOTHING_MIGRATED = new Set(["3D000", "3F000", "42P01"]);

/**
 * The migrations of `names` (a service's committed list, in order) that the schema has not
 * recorded as applied, read without writing anything: MikroORM's own look creates the schema
 * and its table. Migrations recorded but not in `names` (a later release's) are no concern:
 * this release's code works on the schema they leave (docs/decisions.md, expand then contract).
 */
export async function pendingMigrations(url: string, schema: string, names: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>(
      `SELECT name FROM ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(MIGRATIONS_TABLE)}`,
    );
    // MikroORM records a name without its .ts/.js extension.
    const applied = new Set(rows.map((row) => row.name.replace(/\.[jt]s$/, "")));
    return names.filter((name) => !applied.has(name));
  } catch (error) {
    if (NOTHING_MIGRATED.has((error as { code?: string }).code ?? "")) return [...names];
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
