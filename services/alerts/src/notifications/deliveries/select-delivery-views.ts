import type { ChannelKind, DeliveryEvent, DeliveryStatus } from "@pulsegate/contract/vocabulary";
import { type EntityManager, rowDate, rowDateOrNull } from "@pulsegate/db";
import { type DeliveryView, eventIdOf } from "./delivery.ts";

/** Deliveries with their channel's kind and name: one by id, or every one of an alert, oldest event first. */
const SELECT_DELIVERY_VIEWS = (where: "d.id = ?" | "d.alert_id = ?") => `
  SELECT d.id, d.team_id, d.alert_id, d.channel_id, d.event_type, d.outbox_id::text AS outbox_id, d.status,
         d.attempts, d.max_attempts, d.next_attempt_at, d.last_attempt_at, d.last_status_code, d.last_error,
         d.delivered_at, d.created_at, c.kind AS channel_kind, c.name AS channel_name
    FROM alerts.deliveries d JOIN alerts.channels c ON c.id = d.channel_id
   WHERE ${where} ORDER BY d.outbox_id, c.created_at, d.id`;

const BY_ID = SELECT_DELIVERY_VIEWS("d.id = ?");
const BY_ALERT = SELECT_DELIVERY_VIEWS("d.alert_id = ?");

/** Timestamps may come back as text from the embedded database. */
type DeliveryViewRow = {
  id: string;
  team_id: string;
  alert_id: string | null;
  channel_id: string;
  event_type: DeliveryEvent;
  outbox_id: string;
  status: DeliveryStatus;
  attempts: number;
  max_attempts: number;
  next_attempt_at: Date | string;
  last_attempt_at: Date | string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | string | null;
  created_at: Date | string;
  channel_kind: ChannelKind;
  channel_name: string;
};

export async function selectDeliveryViews(em: EntityManager, by: "id" | "alert", id: string): Promise<DeliveryView[]> {
  const rows = await em.execute<DeliveryViewRow[]>(by === "id" ? BY_ID : BY_ALERT, [id]);
  return rows.map((row) => ({
    id: row.id,
    teamId: row.team_id,
    alertId: row.alert_id ?? null,
    channelId: row.channel_id,
    channelKind: row.channel_kind,
    channelName: row.channel_name,
    eventType: row.event_type,
    eventId: eventIdOf(row.outbox_id),
    status: row.status,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    nextAttemptAt: row.status === "pending" ? rowDate(row.next_attempt_at) : null,
    lastAttemptAt: rowDateOrNull(row.last_attempt_at),
    lastStatusCode: row.last_status_code ?? null,
    lastError: row.last_error ?? null,
    deliveredAt: rowDateOrNull(row.delivered_at),
    createdAt: rowDate(row.created_at),
  }));
}
