import { randomUUID } from "node:crypto";
import type { EntityManager } from "@pulsegate/db";
import { writeOutboxEvent } from "../outbox/write-outbox-event.ts";
import type { Severity } from "../severity.ts";
import { type AlertRow, type AlertSource, alertFromRow } from "./alert-row.ts";
import { refundAlertQuota, reserveAlertQuota } from "./consume-alert-quota.ts";

/** One accepted trigger, after filter rules, ready to fold. */
export type FoldInput = {
  teamId: string;
  source: AlertSource;
  sourceId: string;
  title: string;
  description: string;
  severity: Severity;
  metadataJson: string | null;
  groupKey: string | null;
  reopenWindowSeconds: number;
  alertQuotaMonthly: number;
  receivedAt: Date;
};

export type FoldResult =
  | { outcome: "created" | "occurrence_added" | "reopened"; alertId: string; occurrenceCount: number }
  | { outcome: "quota_exhausted" };

/**
 * Folds one trigger into the team's alerts (DESIGN §4), in one transaction:
 * - an open or acknowledged alert with the group key → occurrence_added;
 * - else the newest alert with the key resolved within the reopen window → reopened;
 * - else → created.
 *
 * The common case, a fold into an open alert, is one statement: the UPDATE
 * takes the alert's row lock and the occurrence is written in the same
 * statement. Otherwise a transaction-scoped advisory lock on (team, group key)
 * serialises the triggers of one key and the open alert is looked for again
 * under it, so N concurrent triggers give exactly one created and N-1 folds;
 * the unique index on open alerts per key backs the rule up. Created and
 * reopened alerts consume the monthly quota and write an outbox event; folds
 * do neither.
 */
export async function foldTriggers(em: EntityManager, inputs: FoldInput[]): Promise<FoldResult[]> {
  const results: FoldResult[] = new Array(inputs.length);
  const byKey = new Map<string, number[]>();
  const keyless: number[] = [];
  inputs.forEach((input, index) => {
    if (input.groupKey === null) keyless.push(index);
    else {
      const key = `${input.teamId}\u0000${input.groupKey}`;
      byKey.set(key, [...(byKey.get(key) ?? []), index]);
    }
  });
  await Promise.all([
    ...keyless.map(async (index) => {
      results[index] = await foldUnderLock(em.fork() as EntityManager, inputs[index] as FoldInput);
    }),
    ...[...byKey.values()].map(async (indexes) => {
      const fork = em.fork() as EntityManager;
      let pending = indexes;
      while (pending.length > 0) {
        const folded = await foldIntoOpenAlert(
          fork,
          pending.map((index) => inputs[index] as FoldInput),
        );
        if (folded) {
          pending.forEach((index, position) => {
            results[index] = folded[position] as FoldResult;
          });
          return;
        }
        const [first, ...rest] = pending as [number, ...number[]];
        results[first] = await foldUnderLock(fork, inputs[first] as FoldInput);
        pending = rest;
      }
    }),
  ]);
  return results;
}

/**
 * The slow path: under the (team, group key) lock, fold, reopen or create one
 * trigger. The quota is reserved before the transaction (its row is shared by
 * the whole team; see reserveAlertQuota) and given back if the trigger
 * created nothing; a fold needs none, so it succeeds even without one.
 */
async function foldUnderLock(em: EntityManager, input: FoldInput): Promise<FoldResult> {
  const reserved = await reserveAlertQuota(em, input.teamId, input.alertQuotaMonthly, input.receivedAt);
  let result: FoldResult;
  try {
    result = await lockedFold(em, input, reserved);
  } catch (error) {
    // Best effort: if the database is away the refund fails too, and the count stays one high.
    if (reserved) await refundAlertQuota(em, input.teamId, input.receivedAt).catch(() => undefined);
    throw error;
  }
  if (reserved && result.outcome !== "created" && result.outcome !== "reopened") {
    await refundAlertQuota(em, input.teamId, input.receivedAt);
  }
  return result;
}

async function lockedFold(em: EntityManager, input: FoldInput, quotaReserved: boolean): Promise<FoldResult> {
  return em.transactional(async (tx): Promise<FoldResult> => {
    if (input.groupKey !== null) {
      await tx.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [
        `alerts:${input.teamId}:${input.groupKey}`,
      ]);
      const open = await tx.execute<{ id: string }[]>(
        "SELECT id FROM alerts.alerts WHERE team_id = ? AND group_key = ? AND status <> 'resolved' FOR UPDATE",
        [input.teamId, input.groupKey],
      );
      if (open[0]) {
        const [row] = await tx.execute<AlertRow[]>(
          "UPDATE alerts.alerts SET occurrence_count = occurrence_count + 1, last_seen_at = ? WHERE id = ? RETURNING *",
          [input.receivedAt, open[0].id],
        );
        await insertOccurrence(tx, open[0].id, "occurrence_added", input);
        return {
          outcome: "occurrence_added",
          alertId: open[0].id,
          occurrenceCount: (row as AlertRow).occurrence_count,
        };
      }
      if (input.reopenWindowSeconds > 0) {
        const since = new Date(input.receivedAt.getTime() - input.reopenWindowSeconds * 1000);
        const resolved = await tx.execute<{ id: string }[]>(
          `SELECT id FROM alerts.alerts
            WHERE team_id = ? AND group_key = ? AND status = 'resolved' AND resolved_at >= ?
            ORDER BY resolved_at DESC LIMIT 1 FOR UPDATE`,
          [input.teamId, input.groupKey, since],
        );
        if (resolved[0]) {
          if (!quotaReserved) return { outcome: "quota_exhausted" };
          const [row] = await tx.execute<AlertRow[]>(
            `UPDATE alerts.alerts SET status = 'open', occurrence_count = occurrence_count + 1, last_seen_at = ?,
                    acknowledged_at = NULL, resolved_at = NULL
              WHERE id = ? RETURNING *`,
            [input.receivedAt, resolved[0].id],
          );
          const alert = alertFromRow(row as AlertRow);
          await insertOccurrence(tx, alert.id, "reopened", input);
          await writeOutboxEvent(tx, "alert.reopened", alert, input.receivedAt);
          return { outcome: "reopened", alertId: alert.id, occurrenceCount: alert.occurrenceCount };
        }
      }
    }
    if (!quotaReserved) return { outcome: "quota_exhausted" };
    const [row] = await tx.execute<AlertRow[]>(
      `INSERT INTO alerts.alerts (id, team_id, status, group_key, title, description, severity, occurrence_count,
                           source, source_id, metadata, first_seen_at, last_seen_at, created_at)
       VALUES (?, ?, 'open', ?, ?, ?, ?, 1, ?, ?, ?::json, ?, ?, ?) RETURNING *`,
      [
        `alert_${randomUUID().replaceAll("-", "")}`,
        input.teamId,
        input.groupKey,
        input.title,
        input.description,
        input.severity,
        input.source,
        input.sourceId,
        input.metadataJson,
        input.receivedAt,
        input.receivedAt,
        input.receivedAt,
      ],
    );
    const alert = alertFromRow(row as AlertRow);
    await insertOccurrence(tx, alert.id, "created", input);
    await writeOutboxEvent(tx, "alert.created", alert, input.receivedAt);
    return { outcome: "created", alertId: alert.id, occurrenceCount: 1 };
  });
}

/**
 * One statement for every trigger of one (team, group key) in a batch: bump
 * the open alert's count by their number and record their occurrences. Null
 * when no alert with the key is open. Counts are handed out in batch order.
 */
async function foldIntoOpenAlert(em: EntityManager, items: FoldInput[]): Promise<FoldResult[] | null> {
  const [first] = items as [FoldInput, ...FoldInput[]];
  const lastSeenAt = new Date(Math.max(...items.map((item) => item.receivedAt.getTime())));
  const occurrences = items.map((item, ordinal) => ({
    ordinal,
    source: item.source,
    source_id: item.sourceId,
    title: item.title,
    description: item.description,
    severity: item.severity,
    metadata: item.metadataJson,
    received_at: item.receivedAt.toISOString(),
  }));
  const rows = await em.execute<{ alert_id: string; occurrence_count: number }[]>(
    `WITH folded AS (
       UPDATE alerts.alerts SET occurrence_count = occurrence_count + ?, last_seen_at = GREATEST(last_seen_at, ?)
        WHERE team_id = ? AND group_key = ? AND status <> 'resolved'
        RETURNING id, occurrence_count
     ), recorded AS (
       INSERT INTO alerts.occurrences (alert_id, team_id, outcome, source, source_id, title, description, severity,
                                       metadata, received_at)
       SELECT folded.id, ?, 'occurrence_added', o.source, o.source_id, o.title, o.description, o.severity,
              o.metadata::json, o.received_at
         FROM folded, json_to_recordset(?::json) AS o(ordinal int, source text, source_id text, title text,
                                                     description text, severity text, metadata text,
                                                     received_at timestamptz)
        ORDER BY o.ordinal
     )
     SELECT id AS alert_id, occurrence_count FROM folded`,
    [items.length, lastSeenAt, first.teamId, first.groupKey, first.teamId, JSON.stringify(occurrences)],
  );
  const row = rows[0];
  if (!row) return null;
  const firstCount = row.occurrence_count - items.length + 1;
  return items.map((_, position) => ({
    outcome: "occurrence_added",
    alertId: row.alert_id,
    occurrenceCount: firstCount + position,
  }));
}

async function insertOccurrence(
  tx: EntityManager,
  alertId: string,
  outcome: "created" | "occurrence_added" | "reopened",
  input: FoldInput,
): Promise<void> {
  await tx.execute(
    `INSERT INTO alerts.occurrences (alert_id, team_id, outcome, source, source_id, title, description, severity,
                              metadata, received_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::json, ?)`,
    [
      alertId,
      input.teamId,
      outcome,
      input.source,
      input.sourceId,
      input.title,
      input.description,
      input.severity,
      input.metadataJson,
      input.receivedAt,
    ],
  );
}

/** Folds one trigger (see foldTriggers). */
export async function foldTrigger(em: EntityManager, input: FoldInput): Promise<FoldResult> {
  const [result] = await foldTriggers(em, [input]);
  return result as FoldResult;
}
