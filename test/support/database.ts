import type { Orm } from "@pulsegate/db";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";

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

/**
 * Drops a test's database after the test closed its own connections. Never
 * WITH (FORCE): forcing would kill a pool connection that is still closing,
 * and pg would raise that as an uncaught error in the test run. While the
 * server finishes closing connections (55006) it retries; a database still
 * in use after that is left for the next run's recreateDatabase.
 */
export async function dropDatabase(name: string, server = TEST_DATABASE_SERVER): Promise<boolean> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await onServer(server, [`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)}`]);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code !== "55006") throw error;
      await new Promise((done) => setTimeout(done, 250));
    }
  }
  return false;
}

/** A test file's own migrated database: `orm` as the service opens it, `db` a small pool for setup and checks. */
export type TestDatabase = { url: string; orm: Orm; db: pg.Pool };

/**
 * Gives the calling test file a fresh database of its own, migrated by `open`
 * (the service's own start-up), before its tests; closes and drops it after.
 * The fields are set once beforeAll has run.
 */
export function useTestDatabase(
  name: string,
  open: (url: string) => Promise<Orm>,
  server = TEST_DATABASE_SERVER,
): TestDatabase {
  const database = { url: `${server}/${name}` } as TestDatabase;
  beforeAll(async () => {
    await recreateDatabase(name, server);
    database.orm = await open(database.url);
    database.db = new pg.Pool({ connectionString: database.url, max: 2 });
  });
  afterAll(async () => {
    await database.db?.end();
    await database.orm?.close();
    await dropDatabase(name, server);
  });
  return database;
}
