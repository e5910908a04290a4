// What a migration does to the hot paths' named statements on connections that prepared them
// before it (every process still running while the migrate Job runs): a statement that names its
// columns is untouched; one over a table's * fails until its connection is replaced, so
// statement() refuses it, and a transaction that meets one discards its connection and fails as
// "retry shortly" (docs/decisions.md, "Migrations: expand, then contract").
import { createPgPool, inTransaction, type PgPool, run, type Statement, statement } from "@pulsegate/db";
import { isTransientError } from "@pulsegate/runtime/transient-error";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";

const databaseName = `pulsegate_stale_plans_${process.pid}`;
let pool: PgPool;

beforeAll(async () => {
  await recreateDatabase(databaseName);
  pool = createPgPool({ url: `${TEST_DATABASE_SERVER}/${databaseName}`, max: 1 });
  await pool.query("CREATE SCHEMA s; CREATE TABLE s.t (id int PRIMARY KEY); INSERT INTO s.t VALUES (1)");
});

afterAll(async () => {
  await pool?.end();
  await dropDatabase(databaseName);
});

const NAMED = statement("it-stale-named", "SELECT id, pg_backend_pid() AS pid FROM s.t");
// What statement() refuses, built by hand to show why.
const WHOLE_ROW: Statement = { name: "it-stale-star", text: "SELECT * FROM s.t" };

describe("named statements across a migration", () => {
  it("keeps a statement that names its columns; a * one fails once, as transient, on a connection then discarded", async () => {
    const before = await inTransaction(pool, (client) => run<{ pid: number }>(client, NAMED, []));
    await inTransaction(pool, (client) => run(client, WHOLE_ROW, []));

    // The migration, from another session (the Job).
    const job = createPgPool({ url: `${TEST_DATABASE_SERVER}/${databaseName}`, max: 1 });
    await job.query("ALTER TABLE s.t ADD COLUMN note text NULL");
    await job.end();

    // Same connection (the pool has one): the named columns still read; the * no longer can.
    const after = await inTransaction(pool, (client) => run<{ pid: number }>(client, NAMED, []));
    expect(after[0]?.pid).toBe(before[0]?.pid);
    const stale = await inTransaction(pool, (client) => run(client, WHOLE_ROW, [])).catch((error: unknown) => error);
    expect(stale).toMatchObject({ code: "0A000" });
    expect(isTransientError(stale)).toBe(true);

    // That connection was discarded: a fresh one prepares the statement anew, with the new column.
    const again = await inTransaction(pool, (client) =>
      run<{ id: number; note: string | null }>(client, WHOLE_ROW, []),
    );
    expect(again).toEqual([{ id: 1, note: null }]);
    const fresh = await inTransaction(pool, (client) => run<{ pid: number }>(client, NAMED, []));
    expect(fresh[0]?.pid).not.toBe(before[0]?.pid);
  });

  it("statement() refuses a table's * (RETURNING too), not a function's", () => {
    expect(() => statement("x", "SELECT * FROM alerts.alerts WHERE id = $1")).toThrow(/lists its columns/);
    expect(() => statement("x", "SELECT a.* FROM alerts.alerts a")).toThrow(/lists its columns/);
    expect(() => statement("x", "UPDATE alerts.alerts SET x = 1 RETURNING *")).toThrow(/lists its columns/);
    expect(() => statement("x", "UPDATE alerts.alerts a SET x = 1 RETURNING a.*")).toThrow(/lists its columns/);
    expect(() => statement("x", "SELECT * FROM unnest($1::text[]) AS u(id)")).not.toThrow();
    expect(() => statement("x", "SELECT u.*, 1 AS n FROM unnest($1::text[]) AS u(id)")).not.toThrow();
  });

  it("statement() takes one style of name: kebab-case", () => {
    expect(statement("alerts-trigger-write", "SELECT 1 AS one").name).toBe("alerts-trigger-write");
    for (const name of ["alerts_trigger_write", "alertsTriggerWrite", "Alerts-write", "alerts--write", "alerts-", ""]) {
      expect(() => statement(name, "SELECT 1 AS one")).toThrow(/kebab-case/);
    }
  });
});
