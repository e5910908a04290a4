import pg from "pg";

/** The PostgreSQL server tests use (trust auth on the machine and in CI). */
export const TEST_DATABASE_SERVER = process.env.TEST_DATABASE_SERVER ?? "postgres://postgres@127.0.0.1:5432";

async function onServer(server: string, statements: string[]): Promise<void> {
  const admin = new pg.Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  try {
    for (const statement of statements) await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A fresh, empty database named `name` (any previous one is dropped, connections and all). */
export async function recreateDatabase(name: string, server = TEST_DATABASE_SERVER): Promise<void> {
  const quoted = pg.escapeIdentifier(name);
  await onServer(server, [`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`, `CREATE DATABASE ${quoted}`]);
}

export async function dropDatabase(name: string, server = TEST_DATABASE_SERVER): Promise<void> {
  await onServer(server, [`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`]);
}
