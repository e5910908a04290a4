import type pg from "pg";
import type { PgPool } from "./pg-pool.ts";

/**
 * A table read in keyset pages over id (`select`: $1 the last id seen, $2 the page size) and
 * written back a page at a time with one statement over a JSON array of changes (`swap`: $1),
 * which compares before it sets; `write` answers how many rows it changed. The KEK re-seal's
 * two tables are read and written this way.
 */
export function keysetSwap<Row extends pg.QueryResultRow, Change>(
  pool: PgPool,
  statements: { select: string; swap: string },
): { readPage: (after: string, limit: number) => Promise<Row[]>; write: (changes: Change[]) => Promise<number> } {
  return {
    readPage: async (after, limit) => (await pool.query<Row>(statements.select, [after, limit])).rows,
    write: async (changes) => (await pool.query(statements.swap, [JSON.stringify(changes)])).rowCount ?? 0,
  };
}
