import type { EntityManager, Orm } from "@pulsegate/db";
import { decodeCursor, encodeCursor, pageSize } from "@pulsegate/page-cursor";
import { alertsErrors } from "../errors.ts";
import { writeOutboxEvent } from "../outbox/write-outbox-event.ts";
import type { Severity } from "../severity.ts";
import { ALERT_STATUSES, type AlertRow, type AlertSource, type AlertView, alertFromRow, toDate } from "./alert-row.ts";

export type OccurrenceView = {
  id: string;
  alertId: string;
  outcome: string;
  source: AlertSource;
  sourceId: string;
  title: string;
  description: string;
  severity: Severity;
  metadata: unknown;
  receivedAt: Date;
};

/** Reading alerts and moving them through open → acknowledged → resolved. */
export class AlertService {
  readonly #orm: Orm;
  readonly #now: () => Date;

  constructor(orm: Orm, now: () => Date = () => new Date()) {
    this.#orm = orm;
    this.#now = now;
  }

  async get(id: string): Promise<AlertView> {
    const [row] = await this.#em().execute<AlertRow[]>("SELECT * FROM alerts.alerts WHERE id = ?", [id]);
    if (!row) throw alertsErrors.alertNotFound();
    return alertFromRow(row);
  }

  async list(
    teamId: string,
    status: string,
    cursor: string,
    limit: number,
  ): Promise<{ alerts: AlertView[]; nextCursor: string }> {
    if (status && !(ALERT_STATUSES as readonly string[]).includes(status)) {
      throw alertsErrors.invalid([{ field: "status", message: `status must be one of ${ALERT_STATUSES.join(", ")}.` }]);
    }
    const size = pageSize(limit);
    const after = cursor ? decodeCursor(cursor) : null;
    if (cursor && !after) throw alertsErrors.invalidCursor();
    const rows = await this.#em().execute<AlertRow[]>(
      `SELECT * FROM alerts.alerts
        WHERE team_id = ? AND (?::text = '' OR status = ?)
          AND (?::timestamptz IS NULL OR (created_at, id) < (?::timestamptz, ?))
        ORDER BY created_at DESC, id DESC LIMIT ?`,
      [teamId, status, status, after?.at ?? null, after?.at ?? null, after?.id ?? "", size + 1],
    );
    const page = rows.slice(0, size);
    const last = page.at(-1);
    return {
      alerts: page.map(alertFromRow),
      nextCursor: rows.length > size && last ? encodeCursor(toDate(last.created_at), last.id) : "",
    };
  }

  async occurrences(
    alertId: string,
    cursor: string,
    limit: number,
  ): Promise<{ occurrences: OccurrenceView[]; nextCursor: string }> {
    await this.get(alertId);
    const size = pageSize(limit);
    const after = cursor ? Number(cursor) : null;
    if (cursor && !Number.isSafeInteger(after)) throw alertsErrors.invalidCursor();
    const rows = await this.#em().execute<Record<string, unknown>[]>(
      `SELECT * FROM alerts.occurrences WHERE alert_id = ? AND (?::bigint IS NULL OR id < ?::bigint)
        ORDER BY id DESC LIMIT ?`,
      [alertId, after, after, size + 1],
    );
    const page = rows.slice(0, size);
    return {
      occurrences: page.map((row) => ({
        id: String(row.id),
        alertId: row.alert_id as string,
        outcome: row.outcome as string,
        source: row.source as AlertSource,
        sourceId: row.source_id as string,
        title: row.title as string,
        description: row.description as string,
        severity: row.severity as Severity,
        metadata: row.metadata,
        receivedAt: toDate(row.received_at as Date | string),
      })),
      nextCursor: rows.length > size ? String(page.at(-1)?.id ?? "") : "",
    };
  }

  /** open → acknowledged; acknowledging twice is harmless; a resolved alert refuses. */
  async acknowledge(id: string): Promise<AlertView> {
    return this.#orm.em.fork().transactional(async (tx) => {
      const row = await lockAlert(tx, id);
      if (row.status === "resolved") throw alertsErrors.alertResolved();
      if (row.status === "acknowledged") return alertFromRow(row);
      const [updated] = await tx.execute<AlertRow[]>(
        "UPDATE alerts.alerts SET status = 'acknowledged', acknowledged_at = ?, next_reminder_at = NULL WHERE id = ? RETURNING *",
        [this.#now(), id],
      );
      return alertFromRow(updated as AlertRow);
    });
  }

  /** open or acknowledged → resolved, with an outbox event; resolving twice is harmless. */
  async resolve(id: string): Promise<AlertView> {
    return this.#orm.em.fork().transactional(async (em) => {
      const row = await lockAlert(em, id);
      if (row.status === "resolved") return alertFromRow(row);
      const now = this.#now();
      const [updated] = await em.execute<AlertRow[]>(
        "UPDATE alerts.alerts SET status = 'resolved', resolved_at = ?, next_reminder_at = NULL WHERE id = ? RETURNING *",
        [now, id],
      );
      const alert = alertFromRow(updated as AlertRow);
      // An alert opened under a silence notified nobody; its resolve does not either.
      if (!alert.silencedBy) await writeOutboxEvent(em, "alert.resolved", alert, now);
      return alert;
    });
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}

async function lockAlert(em: EntityManager, id: string): Promise<AlertRow> {
  const [row] = await em.execute<AlertRow[]>("SELECT * FROM alerts.alerts WHERE id = ? FOR UPDATE", [id]);
  if (!row) throw alertsErrors.alertNotFound();
  return row;
}
