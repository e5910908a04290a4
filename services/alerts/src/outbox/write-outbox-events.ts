import type { DeliveryEvent } from "@pulsegate/contract/vocabulary";
import { type EntityManager, type PgClient, type PgPool, run, statement } from "@pulsegate/db";
import { traceparentOf } from "@pulsegate/telemetry";
import type { AlertView } from "../alerts/alert-row.ts";
import type { CHANNEL_DISABLED } from "../notifications/messages/channel-notice.ts";

/**
 * The one writer of alerts.outbox. Events are written inside the caller's
 * transaction, so a change and its notification commit or roll back together;
 * delivery is the dispatcher's job, and it continues the trace of the work
 * that wrote the event (a trigger's request, an admin resolving an alert, a
 * reminder pass, a delivery that disabled its channel).
 */

/** alert.reminder: repeated while an alert with a reminder interval stays open and unacknowledged. */
export type AlertEventType = Exclude<DeliveryEvent, typeof CHANNEL_DISABLED>;

export type OutboxEvent = {
  teamId: string;
  /** Null for a channel notice: it belongs to no alert. */
  alertId: string | null;
  type: DeliveryEvent;
  /** JSON text. */
  payload: string;
  createdAt: Date;
  /** The W3C traceparent its delivery continues; absent: the trace active when it is written. */
  traceparent?: string | null;
};

/** An alert's event: the event and the alert as it stands after it. */
export function alertEvent(
  type: AlertEventType,
  alert: AlertView,
  occurredAt: Date,
  traceparent?: string | null,
): OutboxEvent {
  return {
    teamId: alert.teamId,
    alertId: alert.id,
    type,
    payload: JSON.stringify({ type, occurredAt: occurredAt.toISOString(), alert }),
    createdAt: occurredAt,
    traceparent,
  };
}

function insertOutboxRows(rows: string): string {
  return `INSERT INTO alerts.outbox (team_id, alert_id, event_type, payload, created_at, traceparent)
     SELECT e.team_id, e.alert_id, e.event_type, e.payload::jsonb, e.created_at, e.traceparent
       FROM ${rows}
      ORDER BY e.ord`;
}

/**
 * The INSERT of events, in order, from the six arrays of `outboxColumns` bound
 * at parameters `$first` onwards: a statement of its own, or one step of a
 * larger statement (a trigger batch writes its events in its one statement).
 */
export function insertOutboxEvents(first: number): string {
  const [teams, alerts, types, payloads, times, traces] = [0, 1, 2, 3, 4, 5].map((at) => `$${first + at}`);
  return insertOutboxRows(
    `unnest(${teams}::text[], ${alerts}::text[], ${types}::text[], ${payloads}::jsonb[], ${times}::timestamptz[],
                   ${traces}::text[])
            WITH ORDINALITY AS e(team_id, alert_id, event_type, payload, created_at, traceparent, ord)`,
  );
}

/** The values of `insertOutboxEvents`' six parameters. */
export function outboxColumns(events: OutboxEvent[]): unknown[][] {
  return [
    events.map((event) => event.teamId),
    events.map((event) => event.alertId),
    events.map((event) => event.type),
    events.map((event) => event.payload),
    events.map((event) => event.createdAt),
    events.map(traceOf),
  ];
}

export const WRITE_OUTBOX_EVENTS = statement("alerts-write-outbox-events", insertOutboxEvents(1));

/** An EntityManager binds `?` values and no arrays: there the events travel as one JSON document. */
const WRITE_OUTBOX_EVENTS_JSON = insertOutboxRows(
  `ROWS FROM (jsonb_to_recordset(?::jsonb)
                 AS (team_id text, alert_id text, event_type text, payload text, created_at timestamptz,
                     traceparent text))
            WITH ORDINALITY AS e(team_id, alert_id, event_type, payload, created_at, traceparent, ord)`,
);

export async function writeOutboxEvents(client: PgClient | PgPool, events: OutboxEvent[]): Promise<void> {
  if (events.length > 0) await run(client, WRITE_OUTBOX_EVENTS, outboxColumns(events));
}

/** The same, in an EntityManager's transaction. */
export async function writeOutboxEventsWith(em: EntityManager, events: OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((event) => ({
    team_id: event.teamId,
    alert_id: event.alertId,
    event_type: event.type,
    payload: event.payload,
    created_at: event.createdAt,
    traceparent: traceOf(event),
  }));
  await em.execute(WRITE_OUTBOX_EVENTS_JSON, [JSON.stringify(rows)]);
}

function traceOf(event: OutboxEvent): string | null {
  return event.traceparent === undefined ? traceparentOf() || null : event.traceparent;
}
