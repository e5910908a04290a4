import { decodeCursor, decodeIdCursor, encodeCursor, encodeIdCursor, pageSize } from "@pulsegate/contract/page-cursor";
import { ALERT_STATUSES } from "@pulsegate/contract/vocabulary";
import { type EntityManager, type Orm, rowDate } from "@pulsegate/db";
import { alertsErrors } from "../errors.ts";
import { alertEvent, writeOutboxEventsWith } from "../outbox/write-outbox-events.ts";
import { type AlertView, alertFromRow } from "./alert-row.ts";
import { selectAlert } from "./select-alert.ts";
import { selectAlertPage } from "./select-alert-page.ts";
import { type OccurrenceView, selectOccurrencePage } from "./select-occurrence-page.ts";
import { updateAlertStatus } from "./update-alert-status.ts";

/** Reading alerts and moving them through open → acknowledged → resolved. */
export class AlertService {
  readonly #orm: Orm;
  readonly #onOutboxWritten: () => void;
  readonly #now: () => Date;

  /** `onOutboxWritten`: after a resolve, so the dispatcher looks at once for its event. */
  constructor(orm: Orm, options: { onOutboxWritten?: () => void; now?: () => Date } = {}) {
    this.#orm = orm;
    this.#onOutboxWritten = options.onOutboxWritten ?? (() => undefined);
    this.#now = options.now ?? (() => new Date());
  }

  async get(id: string): Promise<AlertView> {
    return alertFromRow(await selectAlert(this.#em(), id));
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
    const rows = await selectAlertPage(this.#em(), { teamId, status, after, limit: size + 1 });
    const page = rows.slice(0, size);
    const last = page.at(-1);
    return {
      alerts: page.map(alertFromRow),
      nextCursor: rows.length > size && last ? encodeCursor(rowDate(last.created_at), last.id) : "",
    };
  }

  async occurrences(
    alertId: string,
    cursor: string,
    limit: number,
  ): Promise<{ occurrences: OccurrenceView[]; nextCursor: string }> {
    await this.get(alertId);
    const size = pageSize(limit);
    const after = cursor ? decodeIdCursor(cursor) : null;
    if (cursor && !after) throw alertsErrors.invalidCursor();
    const rows = await selectOccurrencePage(this.#em(), { alertId, after, limit: size + 1 });
    const page = rows.slice(0, size);
    const last = page.at(-1);
    return {
      occurrences: page,
      nextCursor: rows.length > size && last ? encodeIdCursor(last.id) : "",
    };
  }

  /**
   * open → acknowledged, with an outbox event (its channels learn who took it); acknowledging
   * twice is harmless and tells nobody again; a resolved alert refuses.
   */
  async acknowledge(id: string, by: string | null = null): Promise<AlertView> {
    let written = false;
    const alert = await this.#orm.em.fork().transactional(async (tx) => {
      const row = await selectAlert(tx, id, "lock");
      if (row.status === "resolved") throw alertsErrors.alertResolved();
      if (row.status === "acknowledged") return alertFromRow(row);
      const now = this.#now();
      const alert = alertFromRow(await updateAlertStatus(tx, id, "acknowledged", now, by));
      // An alert opened under a silence notified nobody; its acknowledgement does not either.
      if (!alert.silencedBy) {
        await writeOutboxEventsWith(tx, [alertEvent("alert.acknowledged", alert, now)]);
        written = true;
      }
      return alert;
    });
    if (written) this.#onOutboxWritten();
    return alert;
  }

  /** open or acknowledged → resolved, with an outbox event; resolving twice is harmless. */
  async resolve(id: string, by: string | null = null): Promise<AlertView> {
    const alert = await this.#orm.em.fork().transactional(async (em) => {
      const row = await selectAlert(em, id, "lock");
      if (row.status === "resolved") return alertFromRow(row);
      const now = this.#now();
      const alert = alertFromRow(await updateAlertStatus(em, id, "resolved", now, by));
      // An alert opened under a silence notified nobody; its resolve does not either.
      if (!alert.silencedBy) await writeOutboxEventsWith(em, [alertEvent("alert.resolved", alert, now)]);
      return alert;
    });
    this.#onOutboxWritten();
    return alert;
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}
