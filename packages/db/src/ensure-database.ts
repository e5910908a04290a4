import pg from "pg";

/** 42P04: duplicate_database. 23505: unique_violation on pg_database's name index, raised instead when two CREATE DATABASE race. */
const ALREADY_EXISTS = new Set(["42P04", "23505"]);

/**
 * Creates the database named in `url` when it does not exist yet, by way of
 * the server's `postgres` maintenance database. Safe to run concurrently
 * (services started together by `npm start`, Kubernetes or tests): creators
 * take turns under an advisory lock on the maintenance database, look again
 * once they hold it, and a creation that still races is taken as done.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  if (await databaseAnswers(url)) return;
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 5_000 });
  await admin.connect();
  try {
    // A session lock on a connection of its own; ending the connection releases it too.
    await admin.query("SELECT pg_advisory_lock(hashtext($1))", [`pulsegate:create-database:${name}`]);
    const existing = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (existing.rowCount === 0) {
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
        if (!ALREADY_EXISTS.has(error.code ?? "")) throw error;
      });
    }
  } finally {
    await admin.end().catch(() => undefined);
  }
}

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
  if (!name) throw new Error("DATABASE_URL names no database.");
  return name;
}

/** True when the database accepts a connection; false when it does not exist (3D000). */
async function databaseAnswers(url: string): Promise<boolean> {
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await probe.connect();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code !== "3D000") throw error;
    return false;
  } finally {
    await probe.end().catch(() => undefined);
  }
}
