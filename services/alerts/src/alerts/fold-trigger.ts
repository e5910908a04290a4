import { randomUUID } from "node:crypto";
import type { EntityManager } from "@pulsegate/db";
import { writeOutboxEvent } from "../outbox/write-outbox-event.ts";
import type { Severity } from "../severity.ts";
import { type AlertRow, type AlertSource, alertFromRow } from "./alert-row.ts";
import { consumeAlertQuota } from "./consume-alert-quota.ts";

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
 * A transaction-scoped advisory lock on (team, group key) serialises triggers
 * of one key, so N concurrent triggers give exactly one created and N-1 folds;
 * the unique index on open alerts per key backs the rule up. Created and
 * reopened alerts consume the monthly quota and write an outbox event; folds
 * do neither.
 */
export async function foldTrigger(em: EntityManager, input: FoldInput): Promise<FoldResult> {
  return em.transactional(async (tx) => {
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
        return { outcome: "occurrence_added", alertId: open[0].id, occurrenceCount: (row as AlertRow).occurrence_count };
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
          if (!(await consumeAlertQuota(tx, input.teamId, input.alertQuotaMonthly, input.receivedAt))) {
            return { outcome: "quota_exhausted" };
          }
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
    if (!(await consumeAlertQuota(tx, input.teamId, input.alertQuotaMonthly, input.receivedAt))) {
      return { outcome: "quota_exhausted" };
    }
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
