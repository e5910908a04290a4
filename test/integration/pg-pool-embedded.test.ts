// The plain pg pool of the hot paths on both databases it meets: PostgreSQL,
// where statements are named and prepared once per connection, and the
// embedded PGlite, whose connections share one session (a name prepared by
// one connection would collide with the same name prepared by the next).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPgPool, inTransaction, type PgPool, run, statement } from "@pulsegate/db";
import { afterAll, describe, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres.ts";
import { TEST_DATABASE_SERVER } from "../support/database.ts";

const ADD = statement("it-pool-add", "SELECT $1::int + 1 AS n, pg_backend_pid() AS pid");

/**
 * Checks out `connections` connections at once and runs ADD on each in turn,
 * twice, outside transactions (PGlite runs one transaction at a time).
 */
async function onEveryConnection(pool: PgPool, connections: number): Promise<number[]> {
  const clients = await Promise.all(Array.from({ length: connections }, () => pool.connect()));
  try {
    const sums: number[] = [];
    for (const [i, client] of clients.entries()) {
      const [row] = await run<{ n: number }>(client, ADD, [i]);
      const [again] = await run<{ n: number }>(client, ADD, [i]);
      sums.push((row?.n ?? 0) + (again?.n ?? 0));
    }
    return sums;
  } finally {
    for (const client of clients) client.release();
  }
}

let embedded: EmbeddedPostgres | undefined;
const pools: PgPool[] = [];

afterAll(async () => {
  for (const pool of pools) await pool.end();
  await embedded?.close();
});

describe("createPgPool", () => {
  it("prepares named statements once per connection on PostgreSQL", async () => {
    const pool = createPgPool({ url: `${TEST_DATABASE_SERVER}/postgres`, max: 3 });
    pools.push(pool);
    expect(await onEveryConnection(pool, 3)).toEqual([2, 4, 6]);
    const client = await pool.connect();
    try {
      await run(client, ADD, [1]);
      const prepared = await client.query("SELECT name FROM pg_prepared_statements WHERE name = $1", [ADD.name]);
      expect(prepared.rows).toEqual([{ name: ADD.name }]);
    } finally {
      client.release();
    }
    expect((await run<{ n: number }>(pool, ADD, [41]))[0]?.n).toBe(42);
  });

  it("runs the same statements on several connections of the embedded database", async () => {
    embedded = await startEmbeddedPostgres(mkdtempSync(join(tmpdir(), "pulsegate-pool-")));
    const pool = createPgPool({ url: embedded.url, max: 3 });
    pools.push(pool);
    expect(await onEveryConnection(pool, 3)).toEqual([2, 4, 6]);
    expect(await inTransaction(pool, async (client) => (await run<{ n: number }>(client, ADD, [1]))[0]?.n)).toBe(2);
  }, 60_000);
});
