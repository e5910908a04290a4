import { randomUUID } from "node:crypto";
import type { EntityManager, Orm } from "@pulsegate/db";
import { toDate } from "../alerts/alert-row.ts";
import { alertsErrors } from "../errors.ts";
import { deliveryResultOf, deliveryResults } from "../metrics/alerts-metrics.ts";
import type { AlertEventType } from "../outbox/write-outbox-event.ts";
import type { ChannelKind } from "./channel.ts";
import type { CHANNEL_DISABLED } from "./channel-notice.ts";

export type DeliveryStatus = "pending" | "delivered" | "failed" | "cancelled";
/** What a delivery tells its channel: an alert's event, or a channel notice. */
export type DeliveryEventType = AlertEventType | typeof CHANNEL_DISABLED;

/** A delivery this replica holds the lease of, with what an attempt needs. */
export type ClaimedDelivery = {
  id: string;
  leaseToken: string;
  outboxId: string;
  teamId: string;
  /** Null for a channel notice (channel.disabled), which belongs to no alert. */
  alertId: string | null;
  channelId: string;
  kind: ChannelKind;
  /** The channel's credentials, sealed (channel-credentials.ts): the dispatcher opens them to send. */
  credentialsSealed: Buffer;
  eventType: DeliveryEventType;
  /** This attempt's number, from 1. */
  attempt: number;
  maxAttempts: number;
  /** The W3C traceparent its outbox event keeps: the attempt continues that trace. */
  traceparent?: string | null;
  /** The outbox event as stored: an alert event, or a channel notice. */
  payload: { type: string; occurredAt: string; alert?: Record<string, unknown>; channel?: Record<string, unknown> };
};

export type AttemptOutcome =
  | { ok: true; statusCode: number }
  | {
      ok: false;
      statusCode: number | null;
      error: string;
      retryInMs: number;
      /** Fail the delivery now (a 4xx other than 408, 425, 429), whatever attempts are left. */
      final?: boolean;
    };

export type DeliveryView = {
  id: string;
  teamId: string;
  alertId: string | null;
  channelId: string;
  channelKind: ChannelKind;
  channelName: string;
  eventType: DeliveryEventType;
  eventId: string;
  status: DeliveryStatus;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
};

/** The id receivers see for an event, the same for every channel it goes to. */
export const eventIdOf = (outboxId: string) => `evt_${outboxId}`;

/**
 * Deliveries in PostgreSQL: claiming with a lease, recording outcomes. Every
 * statement stands alone (no transaction is held across an attempt).
 */
export class DeliveryStore {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  /**
   * Leases up to `limit` due deliveries for `leaseMs` and counts the attempt.
   * A delivery is due when no earlier delivery of the same alert to the same
   * channel is still pending and no earlier event of the alert awaits
   * expansion, so each receiver gets an alert's events in order. Replicas
   * skip rows another one is claiming (SKIP LOCKED) and rows under a lease.
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const leaseToken = randomUUID();
    const rows = await this.#em().execute<Record<string, unknown>[]>(
      `UPDATE alerts.deliveries d
          SET locked_until = now() + (? * interval '1 millisecond'), lease_token = ?, attempts = d.attempts + 1,
              last_attempt_at = now(), updated_at = now()
         FROM (SELECT x.id FROM alerts.deliveries x
                WHERE x.status = 'pending' AND x.next_attempt_at <= now()
                  AND (x.locked_until IS NULL OR x.locked_until <= now())
                  AND NOT EXISTS (SELECT 1 FROM alerts.deliveries e
                                   WHERE e.alert_id = x.alert_id AND e.channel_id = x.channel_id
                                     AND e.outbox_id < x.outbox_id AND e.status = 'pending')
                  AND NOT EXISTS (SELECT 1 FROM alerts.outbox p
                                   WHERE p.alert_id = x.alert_id AND p.id < x.outbox_id AND p.expanded_at IS NULL)
                ORDER BY x.next_attempt_at, x.outbox_id
                LIMIT ? FOR UPDATE OF x SKIP LOCKED) due,
              alerts.channels c, alerts.outbox o
        WHERE d.id = due.id AND c.id = d.channel_id AND o.id = d.outbox_id
        RETURNING d.id, d.outbox_id::text AS outbox_id, d.team_id, d.alert_id, d.channel_id, d.event_type, d.attempts,
                  d.max_attempts, c.kind, c.credentials_sealed, o.payload::text AS payload, o.traceparent`,
      [leaseMs, leaseToken, limit],
    );
    return rows.map((row) => ({
      id: row.id as string,
      leaseToken,
      outboxId: row.outbox_id as string,
      teamId: row.team_id as string,
      alertId: (row.alert_id as string | null) ?? null,
      channelId: row.channel_id as string,
      kind: row.kind as ChannelKind,
      credentialsSealed: row.credentials_sealed as Buffer,
      eventType: row.event_type as DeliveryEventType,
      attempt: row.attempts as number,
      maxAttempts: row.max_attempts as number,
      traceparent: (row.traceparent as string | null) ?? null,
      payload: JSON.parse(row.payload as string) as ClaimedDelivery["payload"],
    }));
  }

  /**
   * Records an attempt's outcome and gives the lease back: delivered, retried
   * after `retryInMs`, or failed once the attempts are used up. A replica
   * whose lease ran out (another took over) or whose channel was deleted
   * meanwhile records nothing. Returns the delivery's new status, or null.
   */
  async complete(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<DeliveryStatus | null> {
    const [row] = outcome.ok
      ? await this.#em().execute<{ status: DeliveryStatus }[]>(
          `UPDATE alerts.deliveries
              SET status = 'delivered', delivered_at = now(), last_status_code = ?, last_error = NULL,
                  locked_until = NULL, lease_token = NULL, updated_at = now()
            WHERE id = ? AND lease_token = ? AND status = 'pending' RETURNING status`,
          [outcome.statusCode, delivery.id, delivery.leaseToken],
        )
      : await this.#em().execute<{ status: DeliveryStatus }[]>(
          `UPDATE alerts.deliveries
              SET status = CASE WHEN ? OR attempts >= max_attempts THEN 'failed' ELSE 'pending' END,
                  next_attempt_at = now() + (? * interval '1 millisecond'),
                  last_status_code = ?, last_error = ?, locked_until = NULL, lease_token = NULL, updated_at = now()
            WHERE id = ? AND lease_token = ? AND status = 'pending' RETURNING status`,
          [
            outcome.final === true,
            outcome.retryInMs,
            outcome.statusCode,
            outcome.error,
            delivery.id,
            delivery.leaseToken,
          ],
        );
    deliveryResults.add(1, { result: deliveryResultOf(outcome.ok, row?.status ?? null), channel_kind: delivery.kind });
    return row?.status ?? null;
  }

  /**
   * Makes a failed delivery pending again, due now, with `extraAttempts`
   * more attempts and the same id (receivers de-duplicate on it). Only a
   * failed delivery to a channel that is still enabled qualifies.
   */
  async retry(id: string, extraAttempts: number): Promise<DeliveryView> {
    const [current] = await this.#em().execute<{ status: DeliveryStatus; usable: boolean }[]>(
      `SELECT d.status, (c.enabled AND c.deleted_at IS NULL) AS usable
         FROM alerts.deliveries d JOIN alerts.channels c ON c.id = d.channel_id WHERE d.id = ?`,
      [id],
    );
    if (!current) throw alertsErrors.deliveryNotFound();
    if (current.status !== "failed") throw alertsErrors.deliveryNotFailed(current.status);
    if (!current.usable) throw alertsErrors.channelUnavailable();
    const updated = await this.#em().execute<{ id: string }[]>(
      `UPDATE alerts.deliveries
          SET status = 'pending', next_attempt_at = now(), max_attempts = attempts + ?, locked_until = NULL,
              lease_token = NULL, updated_at = now()
        WHERE id = ? AND status = 'failed' RETURNING id`,
      [extraAttempts, id],
    );
    // A concurrent retry got there first: report what it left.
    if (updated.length === 0) throw alertsErrors.deliveryNotFailed("pending");
    const [view] = await this.#views("d.id = ?", [id]);
    return view as DeliveryView;
  }

  async get(id: string): Promise<DeliveryView> {
    const [view] = await this.#views("d.id = ?", [id]);
    if (!view) throw alertsErrors.deliveryNotFound();
    return view;
  }

  /** Every delivery of an alert, oldest event first. */
  async listForAlert(alertId: string): Promise<DeliveryView[]> {
    return this.#views("d.alert_id = ?", [alertId]);
  }

  async #views(where: string, params: unknown[]): Promise<DeliveryView[]> {
    const rows = await this.#em().execute<Record<string, unknown>[]>(
      `SELECT d.*, d.outbox_id::text AS outbox_id, c.kind AS channel_kind, c.name AS channel_name
         FROM alerts.deliveries d JOIN alerts.channels c ON c.id = d.channel_id
        WHERE ${where} ORDER BY d.outbox_id, c.created_at, d.id`,
      params,
    );
    const date = (value: unknown) => (value === null || value === undefined ? null : toDate(value as Date | string));
    return rows.map((row) => ({
      id: row.id as string,
      teamId: row.team_id as string,
      alertId: (row.alert_id as string | null) ?? null,
      channelId: row.channel_id as string,
      channelKind: row.channel_kind as ChannelKind,
      channelName: row.channel_name as string,
      eventType: row.event_type as DeliveryEventType,
      eventId: eventIdOf(row.outbox_id as string),
      status: row.status as DeliveryStatus,
      attempts: row.attempts as number,
      maxAttempts: row.max_attempts as number,
      nextAttemptAt: row.status === "pending" ? date(row.next_attempt_at) : null,
      lastAttemptAt: date(row.last_attempt_at),
      lastStatusCode: (row.last_status_code as number | null) ?? null,
      lastError: (row.last_error as string | null) ?? null,
      deliveredAt: date(row.delivered_at),
      createdAt: toDate(row.created_at as Date | string),
    }));
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}
