import pg from "pg";

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

export type PgPoolOptions = {
  url: string;
  max?: number;
  /** Establishing a new connection: past this, the database counts as unreachable. */
  connectTimeoutMs?: number;
  /** No answer to a statement within this: the server counts as unreachable (0: no bound). */
  queryTimeoutMs?: number;
  /** Session settings every connection starts with (sent at connect, no round trip of their own). */
  settings?: Record<string, string>;
};

/**
 * A plain `pg` pool for the hot paths (ping batches, trigger batches), where
 * statements are named and prepared once per connection and values travel as
 * bind parameters (spans and pg_stat_statements see one statement, not one
 * per value set). Waiting for a free connection is load, not an outage, so it
 * is not bounded here; connecting is (`connectTimeoutMs`), and so is a
 * statement's answer (`queryTimeoutMs`).
 */
export function createPgPool(options: PgPoolOptions): PgPool {
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  class BoundedClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
    }
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    // The pool's own timer would also bound the wait for a free connection.
    connectionTimeoutMillis: 0,
    ...(options.queryTimeoutMs ? { query_timeout: options.queryTimeoutMs } : {}),
    ...(options.settings
      ? {
          options: Object.entries(options.settings)
            .map(([name, value]) => `-c ${name}=${value}`)
            .join(" "),
        }
      : {}),
    Client: BoundedClient,
  });
  // An idle connection the server dropped: the next checkout gets a fresh one.
  pool.on("error", () => undefined);
  // A checked-out connection the server drops emits "error" on the client itself, and an "error" event
  // nobody listens to kills the process (it did, with PostgreSQL cut under load). The statement under way
  // fails with the error anyway, and the transaction helper discards the connection.
  pool.on("connect", (client) => client.on("error", () => undefined));
  // Queued before anything the caller sends on the new connection.
  pool.on("connect", (client) => {
    sharedSessions.set(
      client,
      client.query<{ shared: boolean }>("SELECT version() LIKE '%PGlite%' AS shared").then(
        (result) => result.rows[0]?.shared === true,
        () => false,
      ),
    );
  });
  return pool;
}

/**
 * The embedded database (PGlite behind its socket server) serves every
 * connection from one session, so a statement prepared under a name by one
 * connection exists for all of them and a second connection preparing it
 * fails (42P05). There statements go unnamed: still bound, parsed each time.
 */
const sharedSessions = new WeakMap<pg.ClientBase, Promise<boolean>>();

/** A named statement: prepared once per connection, then only bound and executed. */
export type Statement = { name: string; text: string };

/** `RETURNING *` or `SELECT * FROM schema.table` (`x.*` alike): a whole table's row, whatever its columns are then. */
const WHOLE_ROW = /\b(?:RETURNING\s+(?:\w+\.)?\*|SELECT\s+(?:\w+\.)?\*\s+FROM\s+\w+\.\w+)/i;

/** One style for every statement's name: lowercase words joined by hyphens, the owning schema first. */
const STATEMENT_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/**
 * A named statement names its columns: its result type is fixed when a connection prepares it, so
 * one over a table's `*` fails (0A000, "cached plan must not change result type") on every
 * connection that prepared it once a migration adds a column, in every process still running while
 * the migrate Job runs (docs/decisions.md, "Migrations: expand, then contract"). Refused here, at
 * start, rather than found in a rolling upgrade.
 */
export function statement(name: string, text: string): Statement {
  if (!STATEMENT_NAME.test(name)) {
    throw new Error(`statement ${name}: a statement's name is kebab-case, its schema first ("alerts-trigger-write")`);
  }
  if (WHOLE_ROW.test(text)) {
    throw new Error(
      `statement ${name} reads a table's *: a named statement lists its columns (a migration may add one)`,
    );
  }
  return { name, text };
}

/**
 * A prepared statement whose result type a migration changed (a column added under a `*` in it, or
 * in a view it reads): this connection would fail it each time; a fresh one prepares it anew.
 */
export function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "0A000" && typeof message === "string" && message.includes("cached plan must not change result type");
}

export async function run<Row extends pg.QueryResultRow>(
  client: pg.ClientBase | pg.Pool,
  query: Statement,
  values: unknown[],
): Promise<Row[]> {
  if (client instanceof pg.Pool) {
    const connection = await client.connect();
    try {
      const rows = await run<Row>(connection, query, values);
      connection.release();
      return rows;
    } catch (error) {
      connection.release(error as Error);
      throw error;
    }
  }
  const shared = sharedSessions.get(client);
  const named = shared === undefined || !(await shared);
  const result = await client.query<Row>(
    named ? { name: query.name, text: query.text, values } : { text: query.text, values },
  );
  return result.rows;
}

/**
 * Runs `work` in one transaction on one connection and commits it (one
 * synchronous commit), or rolls back and rethrows. A connection that failed
 * mid-transaction is discarded, not returned to the pool, and so is one whose
 * prepared statement went stale (isStalePlan): it would fail the next time too.
 */
export async function inTransaction<T>(pool: PgPool, work: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    try {
      await client.query("ROLLBACK");
    } catch (rollbackError) {
      broken = rollbackError as Error;
    }
    if (isStalePlan(error)) broken ??= error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}
