import { type PgClient, run, statement } from "@pulsegate/db";
import { insertOutboxEvents, outboxColumns } from "../outbox/write-outbox-events.ts";
import { type AlertRow, alertFromRow } from "./alert-row.ts";
import { foldOrReopenSetSql, foldSetSql, nextReminderSql } from "./fold-rule.ts";
import { keyLock, openAlertOfKey, reopenableAlertOfKey } from "./key-lookups.sql.ts";
import type { BatchPlan, FoldInput, KeyState } from "./plan-batch.ts";

/**
 * The statements of a trigger batch, run by fold-triggers.ts in one
 * transaction. Named and prepared once per connection; values are bound.
 *
 * Their generic plans are made once per connection, possibly from statistics
 * taken while the alerts table was nearly empty (autovacuum off, or a fresh
 * database), which make a team look like one row. So each look-up is shaped
 * to have one good plan whatever the statistics say. By (team, group key): a
 * subquery per key (OFFSET 0 keeps it one, so it runs with the key's values)
 * comparing in the "C" collation, which only the unique index of open alerts
 * has (migration 0004), with no LIMIT (a LIMIT let stale statistics prefer
 * walking a team's alerts until one matched). By id: with an id list. A row
 * just found is updated by its ctid. And the pool turns sequential scans off
 * (app.ts).
 */

/**
 * First, for every (team, group key) of the batch: its transaction-scoped
 * advisory lock, taken in hash order (the sort is in a subquery below the
 * locking projection, and the final SELECT reads every key), so batches
 * sharing keys never wait on each other crosswise. Then the keys marked
 * `try_fold` (likely open: see OpenKeys) that do have an open (or
 * acknowledged) alert fold into it, all of the batch's triggers of the key,
 * and their occurrences are written; only those keys' triggers are sent. A
 * key's alert row is only locked after the key's advisory lock. The UPDATE
 * works on the latest version of the row (a fold committed while this
 * statement waited for a lock is counted; one resolved meanwhile is left
 * alone); an alert opened after the statement's snapshot is not seen. Keys
 * that did not fold are left to the classify step. Returns each key's ordinal
 * with the alert it folded into and its count after (null when it did not fold).
 */
export const LOCK_AND_FOLD = statement(
  "alerts-trigger-lock-and-fold",
  `WITH keys AS MATERIALIZED (
     SELECT k.ord, k.team_id, k.group_key, k.added, k.last_seen_at, k.try_fold,
            pg_advisory_xact_lock(k.lock_key)::text AS locked
       FROM (SELECT u.*, ${keyLock("u")} AS lock_key
               FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::bool[])
                    WITH ORDINALITY AS u(team_id, group_key, added, last_seen_at, try_fold, ord)
              ORDER BY lock_key) AS k
   ), targets AS (
     SELECT k.ord, k.added, k.last_seen_at, t.id, t.tid
       FROM keys k
      CROSS JOIN LATERAL (
        ${openAlertOfKey("a.id, a.ctid AS tid")}
      ) t
      WHERE k.try_fold
   ), folded AS (
     UPDATE alerts.alerts a
        SET ${foldSetSql("t")}
       FROM targets t
      WHERE a.ctid = t.tid AND a.id = t.id AND a.status <> 'resolved'
     RETURNING t.ord, a.id, a.occurrence_count
   ), recorded AS (
     INSERT INTO alerts.occurrences (alert_id, team_id, outcome, source, source_id, title, description, severity,
                                     metadata, received_at)
     SELECT f.id, o.team_id, 'occurrence_added', o.source, o.source_id, o.title, o.description, o.severity,
            o.metadata, o.received_at
       FROM unnest($6::int[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::jsonb[],
                   $14::timestamptz[])
            WITH ORDINALITY AS o(key_ord, team_id, source, source_id, title, description, severity, metadata,
                                 received_at, ord)
       JOIN folded f ON f.ord = o.key_ord
      ORDER BY o.ord
   )
   SELECT k.ord::int AS ord, f.id AS alert_id, f.occurrence_count
     FROM keys k LEFT JOIN folded f ON f.ord = k.ord`,
);

/**
 * Under those locks, for the keys that did not fold: the open alert (one
 * opened meanwhile), or else the newest alert resolved within the first
 * trigger's reopen window. And for teams with a quota that may create or
 * reopen, this month's usage, its row locked in team order until commit (the
 * upsert also locks a row committed after this statement's snapshot, and
 * returns its latest count).
 */
export const CLASSIFY_KEYS = statement(
  "alerts-trigger-classify",
  `WITH keys AS (
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[])
                   WITH ORDINALITY AS k(team_id, group_key, reopen_window, received_at, ord)
   ), classified AS (
     SELECT k.ord, o.id AS open_id, r.alert AS resolved_alert
       FROM keys k
       LEFT JOIN LATERAL (
         ${openAlertOfKey("a.id")}
       ) o ON true
       LEFT JOIN LATERAL (
         ${reopenableAlertOfKey("o.id IS NULL")}
       ) r ON true
   ), usage AS (
     INSERT INTO alerts.alert_quota_usage AS u (team_id, month, used)
     SELECT q.team_id, q.month, 0 FROM unnest($5::text[], $6::date[]) AS q(team_id, month)
      ORDER BY q.team_id, q.month
     ON CONFLICT (team_id, month) DO UPDATE SET used = u.used
     RETURNING u.team_id, to_char(u.month, 'YYYY-MM-DD') AS month, u.used
   )
   SELECT ord::int AS ord, open_id, resolved_alert, NULL::text AS team_id, NULL::text AS month, NULL::int AS used
     FROM classified
   UNION ALL
   SELECT NULL, NULL, NULL, team_id, month, used FROM usage`,
);

/**
 * The whole batch in one statement: created alerts, bumped ones (folds into
 * open alerts; reopens, which also take their trigger's episode; a fold's
 * target must still be open and a reopen's still resolved, else it is not
 * returned), every occurrence in batch order, the outbox events of created
 * and reopened alerts (each with its trigger's traceparent, so no statement
 * is added per item), and the quota counts.
 * Returns each bumped alert's count after the write, and how many were created.
 */
export const WRITE_BATCH = statement(
  "alerts-trigger-write",
  `WITH created AS (
     INSERT INTO alerts.alerts (id, team_id, status, group_key, title, description, severity, occurrence_count,
                                source, source_id, metadata, first_seen_at, last_seen_at, created_at,
                                repeat_interval_seconds, next_reminder_at, silenced_by)
     SELECT c.id, c.team_id, 'open', c.group_key, c.title, c.description, c.severity, c.occurrence_count,
            c.source, c.source_id, c.metadata, c.first_seen_at, c.last_seen_at, c.first_seen_at,
            c.repeat, ${nextReminderSql("c.first_seen_at", "c.repeat", "c.silenced")},
            c.silenced
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[],
                   $9::text[], $10::jsonb[], $11::timestamptz[], $12::timestamptz[], $36::int[], $38::text[])
            AS c(id, team_id, group_key, title, description, severity, occurrence_count, source, source_id, metadata,
                 first_seen_at, last_seen_at, repeat, silenced)
     RETURNING 1
   ), bumped AS (
     UPDATE alerts.alerts a
        SET ${foldOrReopenSetSql("b")}
       FROM unnest($13::text[], $14::int[], $15::bool[], $16::timestamptz[], $37::int[], $39::text[], $40::text[],
                   $41::text[], $42::text[], $43::jsonb[])
            AS b(id, added, reopen, last_seen_at, repeat, silenced, title, description, severity, metadata)
      WHERE a.id = b.id AND (a.status = 'resolved') = b.reopen AND a.id = ANY ($13::text[])
     RETURNING a.id, a.occurrence_count
   ), occurred AS (
     INSERT INTO alerts.occurrences (alert_id, team_id, outcome, source, source_id, title, description, severity,
                                     metadata, received_at)
     SELECT o.alert_id, o.team_id, o.outcome, o.source, o.source_id, o.title, o.description, o.severity, o.metadata,
            o.received_at
       FROM unnest($17::text[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[],
                   $24::text[], $25::jsonb[], $26::timestamptz[])
            WITH ORDINALITY AS o(alert_id, team_id, outcome, source, source_id, title, description, severity, metadata,
                                 received_at, ord)
      ORDER BY o.ord
   ), outboxed AS (
     ${insertOutboxEvents(27)}
   ), counted AS (
     INSERT INTO alerts.alert_quota_usage AS u (team_id, month, used)
     SELECT q.team_id, q.month, q.used FROM unnest($33::text[], $34::date[], $35::int[]) AS q(team_id, month, used)
      ORDER BY q.team_id, q.month
     ON CONFLICT (team_id, month) DO UPDATE SET used = u.used + EXCLUDED.used
   )
   SELECT id, occurrence_count FROM bumped
   UNION ALL
   SELECT NULL, count(*)::int FROM created`,
);

export type KeyToClassify = { teamId: string; groupKey: string; reopenWindowSeconds: number; receivedAt: Date };
export type QuotaToLock = { teamId: string; month: string };

/** A key of the batch: how many triggers it has, the latest of their times, whether to try folding it. */
export type KeyToFold = { teamId: string; groupKey: string; added: number; lastSeenAt: Date; tryFold: boolean };

/** A trigger of a `tryFold` key; `keyIndex`: the position of its key in the keys given with it. */
export type TriggerToFold = { keyIndex: number; input: FoldInput };

/**
 * Locks every key and folds the `tryFold` ones that have an open alert; per
 * key (in order), its alert and count after, or null.
 */
export async function lockAndFold(
  client: PgClient,
  keys: KeyToFold[],
  triggers: TriggerToFold[],
): Promise<({ alertId: string; countAfter: number } | null)[]> {
  const rows = await run<{ ord: number; alert_id: string | null; occurrence_count: number | null }>(
    client,
    LOCK_AND_FOLD,
    [
      keys.map((key) => key.teamId),
      keys.map((key) => key.groupKey),
      keys.map((key) => key.added),
      keys.map((key) => key.lastSeenAt),
      keys.map((key) => key.tryFold),
      triggers.map((trigger) => trigger.keyIndex + 1),
      triggers.map((trigger) => trigger.input.teamId),
      triggers.map((trigger) => trigger.input.source),
      triggers.map((trigger) => trigger.input.sourceId),
      triggers.map((trigger) => trigger.input.title),
      triggers.map((trigger) => trigger.input.description),
      triggers.map((trigger) => trigger.input.severity),
      triggers.map((trigger) => trigger.input.metadataJson),
      triggers.map((trigger) => trigger.input.receivedAt),
    ],
  );
  const folded: ({ alertId: string; countAfter: number } | null)[] = keys.map(() => null);
  for (const row of rows) {
    if (row.alert_id !== null) {
      folded[row.ord - 1] = { alertId: row.alert_id, countAfter: row.occurrence_count as number };
    }
  }
  return folded;
}

type ClassifyRow = {
  ord: number | null;
  open_id: string | null;
  resolved_alert: AlertRow | null;
  team_id: string | null;
  month: string | null;
  used: number | null;
};

/** States in the order of `keys`; usage of the given teams and months, their rows locked. */
export async function classifyKeys(
  client: PgClient,
  keys: KeyToClassify[],
  quotas: QuotaToLock[],
): Promise<{ states: KeyState[]; usage: { teamId: string; month: string; used: number }[] }> {
  const rows = await run<ClassifyRow>(client, CLASSIFY_KEYS, [
    keys.map((key) => key.teamId),
    keys.map((key) => key.groupKey),
    keys.map((key) => key.reopenWindowSeconds),
    keys.map((key) => key.receivedAt),
    quotas.map((quota) => quota.teamId),
    quotas.map((quota) => quota.month),
  ]);
  const states: KeyState[] = keys.map(() => ({ kind: "none" }));
  const usage: { teamId: string; month: string; used: number }[] = [];
  for (const row of rows) {
    if (row.ord === null) {
      usage.push({ teamId: row.team_id as string, month: row.month as string, used: row.used as number });
    } else if (row.open_id !== null) {
      states[row.ord - 1] = { kind: "open", alertId: row.open_id };
    } else if (row.resolved_alert !== null) {
      states[row.ord - 1] = { kind: "resolved", alert: alertFromRow(row.resolved_alert) };
    }
  }
  return { states, usage };
}

/** Writes the plan; returns each bumped alert's occurrence count after it, and how many alerts were created. */
export async function writeBatch(
  client: PgClient,
  plan: BatchPlan,
): Promise<{ countAfter: Map<string, number>; created: number }> {
  const { creates, bumps, occurrences, events, quota } = plan;
  const rows = await run<{ id: string | null; occurrence_count: number }>(client, WRITE_BATCH, [
    creates.map((alert) => alert.id),
    creates.map((alert) => alert.teamId),
    creates.map((alert) => alert.groupKey),
    creates.map((alert) => alert.title),
    creates.map((alert) => alert.description),
    creates.map((alert) => alert.severity),
    creates.map((alert) => alert.occurrenceCount),
    creates.map((alert) => alert.source),
    creates.map((alert) => alert.sourceId),
    creates.map((alert) => alert.metadataJson),
    creates.map((alert) => alert.firstSeenAt),
    creates.map((alert) => alert.lastSeenAt),
    bumps.map((bump) => bump.alertId),
    bumps.map((bump) => bump.added),
    bumps.map((bump) => bump.reopen),
    bumps.map((bump) => bump.lastSeenAt),
    occurrences.map((row) => row.alertId),
    occurrences.map((row) => row.input.teamId),
    occurrences.map((row) => row.outcome),
    occurrences.map((row) => row.input.source),
    occurrences.map((row) => row.input.sourceId),
    occurrences.map((row) => row.input.title),
    occurrences.map((row) => row.input.description),
    occurrences.map((row) => row.input.severity),
    occurrences.map((row) => row.input.metadataJson),
    occurrences.map((row) => row.input.receivedAt),
    ...outboxColumns(events),
    quota.map((row) => row.teamId),
    quota.map((row) => row.month),
    quota.map((row) => row.count),
    creates.map((alert) => alert.repeatIntervalSeconds),
    bumps.map((bump) => bump.repeatIntervalSeconds),
    creates.map((alert) => alert.silencedBy),
    bumps.map((bump) => bump.silencedBy),
    bumps.map((bump) => bump.episode?.title ?? null),
    bumps.map((bump) => bump.episode?.description ?? null),
    bumps.map((bump) => bump.episode?.severity ?? null),
    bumps.map((bump) => bump.episode?.metadataJson ?? null),
  ]);
  const countAfter = new Map<string, number>();
  let created = 0;
  for (const row of rows) {
    if (row.id === null) created = row.occurrence_count;
    else countAfter.set(row.id, row.occurrence_count);
  }
  return { countAfter, created };
}
