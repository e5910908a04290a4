import type { EntityManager } from "@mikro-orm/postgresql";
import type pg from "pg";
import { run, type Statement, statement } from "./pg-pool.ts";

/**
 * A request's Idempotency-Key, scoped to its team, and a digest of what the request asked for
 * (its kind, source and body), so one key sent with another request is told apart from a retry.
 */
export type IdempotencyKey = { teamId: string; key: string; fingerprint: string };

/** What a key's claim found, for one item of a batch. */
export type Claim<Answer> =
  /** The key is this request's: apply it, then keep its answer (or drop the claim if nothing was applied). */
  | { kind: "first" }
  /** The key's first request was applied and answered this: answer it again, apply nothing. */
  | { kind: "repeat"; answer: Answer }
  /** An earlier item of the same batch holds the key for the same request: answer what that one is answered. */
  | { kind: "same_as"; index: number }
  /** The key was used for another request (another body, source or endpoint). */
  | { kind: "reused" };

/** The schema that owns an `idempotency_keys` table (created by that service's migration). */
export type IdempotencySchema = "alerts" | "monitors";

/**
 * The table a service keeps its callers' idempotency keys in, one row per (team, key): created
 * by the claim inside the transaction that applies the request, answered in that same
 * transaction. A retry that arrives while the first is still being applied waits on the row and
 * then finds its answer; one that arrives after a lost answer (a 503 whose work was done) finds
 * it too, so the work is never done twice. The migration of each schema creates the table as
 * `createIdempotencyKeysSql` writes it.
 */
export class IdempotencyKeys<Answer> {
  readonly #claim: Statement;
  readonly #read: Statement;
  readonly #keep: Statement;
  readonly #drop: Statement;
  readonly #keptMs: number;

  constructor(schema: IdempotencySchema, keptHours: number) {
    const table = `${schema}.idempotency_keys`;
    this.#keptMs = keptHours * 3_600_000;
    // A row older than the keeping time is a key seen long ago: it is claimed afresh.
    this.#claim = statement(
      `${schema}-idempotency-claim`,
      `INSERT INTO ${table} AS k (team_id, key, fingerprint, created_at)
       SELECT u.team_id, u.key, u.fingerprint, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS u(team_id, key, fingerprint)
        ORDER BY 1, 2
       ON CONFLICT (team_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, answer = NULL,
                                                created_at = EXCLUDED.created_at
        WHERE k.created_at < $5
       RETURNING team_id, key`,
    );
    this.#read = statement(
      `${schema}-idempotency-read`,
      `SELECT k.team_id, k.key, k.fingerprint, k.answer
         FROM ${table} k JOIN unnest($1::text[], $2::text[]) AS u(team_id, key) USING (team_id, key)`,
    );
    this.#keep = statement(
      `${schema}-idempotency-keep`,
      `UPDATE ${table} k SET answer = u.answer
         FROM unnest($1::text[], $2::text[], $3::jsonb[]) AS u(team_id, key, answer)
        WHERE k.team_id = u.team_id AND k.key = u.key`,
    );
    this.#drop = statement(
      `${schema}-idempotency-drop`,
      `DELETE FROM ${table} k USING unnest($1::text[], $2::text[]) AS u(team_id, key)
        WHERE k.team_id = u.team_id AND k.key = u.key`,
    );
  }

  /**
   * Claims the keys of a batch's items (null: an item without one), in (team, key) order so two
   * batches never deadlock on each other's keys. Call it first in the transaction that applies
   * the items, before any other lock. Results in the order of `keys`.
   */
  async claim(client: pg.ClientBase, keys: (IdempotencyKey | null)[], now: Date): Promise<(Claim<Answer> | null)[]> {
    const claims: (Claim<Answer> | null)[] = new Array(keys.length).fill(null);
    const firstOf = new Map<string, number>();
    const toClaim: IdempotencyKey[] = [];
    keys.forEach((key, index) => {
      if (key === null) return;
      const id = `${key.teamId}\u0000${key.key}`;
      const earlier = firstOf.get(id);
      if (earlier === undefined) {
        firstOf.set(id, index);
        toClaim.push(key);
      } else {
        const same = (keys[earlier] as IdempotencyKey).fingerprint === key.fingerprint;
        claims[index] = same ? { kind: "same_as", index: earlier } : { kind: "reused" };
      }
    });
    if (toClaim.length === 0) return claims;
    const teams = toClaim.map((key) => key.teamId);
    const names = toClaim.map((key) => key.key);
    const claimed = await run<{ team_id: string; key: string }>(client, this.#claim, [
      teams,
      names,
      toClaim.map((key) => key.fingerprint),
      now,
      new Date(now.getTime() - this.#keptMs),
    ]);
    const taken = new Set(claimed.map((row) => `${row.team_id}\u0000${row.key}`));
    const held = toClaim.filter((key) => !taken.has(`${key.teamId}\u0000${key.key}`));
    // A statement of its own: its snapshot sees a first request that committed while the claim waited on it.
    const earlier =
      held.length === 0
        ? []
        : await run<{ team_id: string; key: string; fingerprint: string; answer: Answer | null }>(client, this.#read, [
            held.map((key) => key.teamId),
            held.map((key) => key.key),
          ]);
    const found = new Map(earlier.map((row) => [`${row.team_id}\u0000${row.key}`, row]));
    for (const [id, index] of firstOf) {
      if (taken.has(id)) {
        claims[index] = { kind: "first" };
        continue;
      }
      const row = found.get(id);
      const key = keys[index] as IdempotencyKey;
      if (!row || row.answer === null) claims[index] = { kind: "first" };
      else if (row.fingerprint !== key.fingerprint) claims[index] = { kind: "reused" };
      else claims[index] = { kind: "repeat", answer: row.answer };
    }
    return claims;
  }

  /**
   * Applies a batch under its items' keys (null: an item without one), inside the caller's
   * transaction: claims the keys, applies the items whose keys are theirs (and those without),
   * keeps the answers of the applied ones and drops the claims of those that applied nothing, so
   * their retry is checked afresh. A repeat is answered from its key's first request, a reused
   * key as `answers.reused`. Results in the order of `items`; `apply` gets a subset, in order.
   */
  async applyOnce<Item, Result>(
    client: pg.ClientBase,
    items: Item[],
    keys: (IdempotencyKey | null)[],
    apply: (items: Item[]) => Promise<Result[]>,
    answers: {
      /** What to keep for a result; null: nothing was applied. */
      keep: (result: Result) => Answer | null;
      repeat: (answer: Answer) => Result;
      /** The answer to a reused key; "apply": apply the item anyway, as if it had no key. */
      reused: (() => Result) | "apply";
    },
  ): Promise<Result[]> {
    if (keys.every((key) => key === null)) return apply(items);
    const claims = await this.claim(client, keys, new Date());
    const applyReused = answers.reused === "apply";
    const chosen = claims.flatMap((claim, index) =>
      claim === null || claim.kind === "first" || (claim.kind === "reused" && applyReused) ? [index] : [],
    );
    const applied = await apply(chosen.map((index) => items[index] as Item));
    const results = new Array<Result>(items.length);
    const kept: { key: IdempotencyKey; answer: Answer }[] = [];
    const dropped: IdempotencyKey[] = [];
    chosen.forEach((index, position) => {
      const result = applied[position] as Result;
      results[index] = result;
      const key = keys[index];
      if (!key || claims[index]?.kind === "reused") return;
      const answer = answers.keep(result);
      if (answer === null) dropped.push(key);
      else kept.push({ key, answer });
    });
    claims.forEach((claim, index) => {
      if (claim?.kind === "repeat") results[index] = answers.repeat(claim.answer);
      else if (claim?.kind === "reused" && answers.reused !== "apply") results[index] = answers.reused();
      else if (claim?.kind === "same_as") {
        const first = results[claim.index] as Result;
        const answer = answers.keep(first);
        results[index] = answer === null ? first : answers.repeat(answer);
      }
    });
    await this.keep(client, kept);
    await this.drop(client, dropped);
    return results;
  }

  /** The answers of requests that claimed their keys and were applied, in the same transaction. */
  async keep(client: pg.ClientBase, answers: { key: IdempotencyKey; answer: Answer }[]): Promise<void> {
    if (answers.length === 0) return;
    await run(client, this.#keep, [
      answers.map((entry) => entry.key.teamId),
      answers.map((entry) => entry.key.key),
      answers.map((entry) => JSON.stringify(entry.answer)),
    ]);
  }

  /** Claims of requests that applied nothing (refused by a quota, a paused monitor): a retry is checked again. */
  async drop(client: pg.ClientBase, keys: IdempotencyKey[]): Promise<void> {
    if (keys.length === 0) return;
    await run(client, this.#drop, [keys.map((key) => key.teamId), keys.map((key) => key.key)]);
  }
}

/** The table, as each owning service's migration creates it. */
export function createIdempotencyKeysSql(schema: IdempotencySchema): string[] {
  return [
    `CREATE TABLE ${schema}.idempotency_keys (
       team_id text NOT NULL,
       key text NOT NULL,
       fingerprint text NOT NULL,
       answer jsonb,
       created_at timestamptz NOT NULL,
       PRIMARY KEY (team_id, key)
     )`,
    `CREATE INDEX idempotency_keys_created_at ON ${schema}.idempotency_keys (created_at)`,
  ];
}

/** One retention batch: keys older than the keeping time (a retry after that is a new request). */
export async function deleteExpiredIdempotencyKeys(
  tx: EntityManager,
  schema: IdempotencySchema,
  batchSize: number,
  keptHours: number,
): Promise<number> {
  const result = await tx.execute<{ affectedRows: number }>(
    `DELETE FROM ${schema}.idempotency_keys WHERE (team_id, key) IN (
       SELECT team_id, key FROM ${schema}.idempotency_keys
        WHERE created_at < now() - make_interval(hours => ?)
        ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED)`,
    [keptHours, batchSize],
    "run",
  );
  return result.affectedRows;
}
