import type { ChannelKind, DeliveryEvent, SignatureScheme } from "@pulsegate/contract/vocabulary";
import { type EntityManager, type RowDate, rowDateOrNull } from "@pulsegate/db";
import type { ClaimedDelivery } from "./delivery.ts";

/**
 * Leases up to `limit` due deliveries and counts the attempt, in one statement. A delivery is
 * due when no earlier delivery of the same alert to the same channel is still pending and no
 * earlier event of the alert awaits expansion, so each receiver gets an alert's events in order.
 * Replicas skip rows another one is claiming (SKIP LOCKED) and rows under a lease.
 */
const CLAIM_DELIVERIES = `
  UPDATE alerts.deliveries d
     SET locked_until = now() + (? * interval '1 millisecond'), lease_token = ?, attempts = d.attempts + 1,
         last_attempt_at = now(), updated_at = now()
    FROM (SELECT x.id FROM alerts.deliveries x
           WHERE x.status = 'pending' AND x.next_attempt_at <= now()
             AND (x.locked_until IS NULL OR x.locked_until <= now())
             AND NOT EXISTS (SELECT 1 FROM alerts.deliveries e
                              WHERE e.alert_id = x.alert_id AND e.channel_id = x.channel_id
                                AND e.outbox_id < x.outbox_id AND e.status = 'pending')
             AND NOT EXISTS (SELECT 1 FROM alerts.outbox p JOIN alerts.outbox_pending q ON q.outbox_id = p.id
                              WHERE p.alert_id = x.alert_id AND p.id < x.outbox_id)
           ORDER BY x.next_attempt_at, x.outbox_id
           LIMIT ? FOR UPDATE OF x SKIP LOCKED) due,
         alerts.channels c, alerts.outbox o
   WHERE d.id = due.id AND c.id = d.channel_id AND o.id = d.outbox_id
   RETURNING d.id, d.outbox_id::text AS outbox_id, d.team_id, d.alert_id, d.channel_id, d.event_type, d.attempts,
             d.max_attempts, c.kind, c.credentials_sealed, c.signature_scheme, c.previous_signing_secret_valid_until,
             o.payload::text AS payload, o.traceparent`;

type ClaimedRow = {
  id: string;
  outbox_id: string;
  team_id: string;
  alert_id: string | null;
  channel_id: string;
  event_type: DeliveryEvent;
  attempts: number;
  max_attempts: number;
  kind: ChannelKind;
  credentials_sealed: Buffer;
  signature_scheme: SignatureScheme | null;
  previous_signing_secret_valid_until: RowDate | null;
  payload: string;
  traceparent: string | null;
};

export async function claimDeliveries(
  em: EntityManager,
  claim: { leaseToken: string; leaseMs: number; limit: number },
): Promise<ClaimedDelivery[]> {
  const { leaseToken, leaseMs, limit } = claim;
  const rows = await em.execute<ClaimedRow[]>(CLAIM_DELIVERIES, [leaseMs, leaseToken, limit]);
  return rows.map((row) => ({
    id: row.id,
    leaseToken,
    outboxId: row.outbox_id,
    teamId: row.team_id,
    alertId: row.alert_id ?? null,
    channelId: row.channel_id,
    kind: row.kind,
    credentialsSealed: row.credentials_sealed,
    signatureScheme: row.signature_scheme ?? null,
    previousSigningSecretValidUntil: rowDateOrNull(row.previous_signing_secret_valid_until ?? null),
    eventType: row.event_type,
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
    traceparent: row.traceparent ?? null,
    payload: JSON.parse(row.payload) as ClaimedDelivery["payload"],
  }));
}
