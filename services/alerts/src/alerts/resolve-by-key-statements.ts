import { type PgClient, type PgPool, run, statement } from "@pulsegate/db";
import type { AlertRow } from "./alert-row.ts";
import { keyLock, latestAlertOfKey, openAlertOfKey } from "./key-lookups.sql.ts";

/**
 * The statements of a resolve-by-key batch (resolve-by-key.ts). Look-ups by
 * (team, group key) are key-lookups.sql.ts's, shaped as in batch-statements.ts:
 * one subquery per key, compared in the "C" collation of the unique index of
 * open alerts.
 */

/**
 * First, the advisory lock of every (team, group key), in hash order: the
 * same lock and order as a trigger batch, so a resolve and a fold of one key
 * are serialised and never deadlock. $1, $2 team ids and group keys.
 */
export const LOCK_KEYS = statement(
  "alerts-resolve-by-key-lock",
  `SELECT count(pg_advisory_xact_lock(k.lock_key))::int AS locked
     FROM (SELECT ${keyLock("u")} AS lock_key
             FROM unnest($1::text[], $2::text[]) AS u(team_id, group_key)
            ORDER BY lock_key) AS k`,
);

/**
 * Then, in a statement of its own (its snapshot is taken after the locks, so
 * it sees an alert a trigger opened while this waited): resolves each key's
 * open (or acknowledged) alert, and for keys without one returns the newest
 * alert with the key. $1, $2 team ids and group keys (distinct pairs); $3 the time.
 */
export const RESOLVE_KEYS = statement(
  "alerts-resolve-by-key",
  `WITH keys AS (
     SELECT * FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(team_id, group_key, ord)
   ), targets AS (
     SELECT k.ord, t.id, t.tid
       FROM keys k
      CROSS JOIN LATERAL (
        ${openAlertOfKey("a.id, a.ctid AS tid")}
      ) t
   ), resolved AS (
     UPDATE alerts.alerts a
        SET status = 'resolved', resolved_at = $3, next_reminder_at = NULL
       FROM targets t
      WHERE a.ctid = t.tid AND a.id = t.id AND a.status <> 'resolved'
     RETURNING t.ord, to_jsonb(a) AS alert
   )
   SELECT k.ord::int AS ord, r.alert AS resolved, l.alert AS latest
     FROM keys k
     LEFT JOIN resolved r ON r.ord = k.ord
     LEFT JOIN LATERAL (
       ${latestAlertOfKey("r.ord IS NULL")}
     ) l ON true`,
);

/** The same answer without locking or writing anything (dry run). */
export const PREVIEW_RESOLVE_KEYS = statement(
  "alerts-preview-resolve-by-key",
  `WITH keys AS (
     SELECT * FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(team_id, group_key, ord)
   )
   SELECT k.ord::int AS ord, o.alert AS resolved, l.alert AS latest
     FROM keys k
     LEFT JOIN LATERAL (
       ${openAlertOfKey("to_jsonb(a) AS alert")}
     ) o ON true
     LEFT JOIN LATERAL (
       ${latestAlertOfKey("o.alert IS NULL")}
     ) l ON true`,
);

export type KeyToResolve = { teamId: string; groupKey: string };

/** Per key, in order: the alert it resolved now, or else the newest alert with the key (or neither). */
export type KeyResolution = { resolved: AlertRow | null; latest: AlertRow | null };

export async function resolveKeys(
  client: PgClient | PgPool,
  keys: KeyToResolve[],
  at: Date,
  dryRun: boolean,
): Promise<KeyResolution[]> {
  const teams = keys.map((key) => key.teamId);
  const groupKeys = keys.map((key) => key.groupKey);
  if (!dryRun) await run(client, LOCK_KEYS, [teams, groupKeys]);
  const rows = await run<{ ord: number; resolved: AlertRow | null; latest: AlertRow | null }>(
    client,
    dryRun ? PREVIEW_RESOLVE_KEYS : RESOLVE_KEYS,
    dryRun ? [teams, groupKeys] : [teams, groupKeys, at],
  );
  const out: KeyResolution[] = keys.map(() => ({ resolved: null, latest: null }));
  for (const row of rows) out[row.ord - 1] = { resolved: row.resolved, latest: row.latest };
  return out;
}
