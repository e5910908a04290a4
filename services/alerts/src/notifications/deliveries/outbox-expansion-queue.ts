import type { EntityManager } from "@pulsegate/db";

/**
 * The outbox as the expansion's queue (`alerts.outbox`, oldest first): events are claimed in the
 * expanding transaction (SKIP LOCKED: replicas take disjoint events), then marked expanded, or set
 * aside when one cannot be expanded on its own.
 */

/** An outbox event as the expansion routes it. */
export type OutboxEventRow = {
  id: string;
  team_id: string;
  alert_id: string | null;
  event_type: string;
  severity: string | null;
};

/** Locks the oldest unexpanded events, or only the one given. `?`: the event id or null (twice), batch size. */
export const CLAIM_OUTBOX_EVENTS = `SELECT id::text AS id, team_id, alert_id, event_type, payload->'alert'->>'severity' AS severity
         FROM alerts.outbox WHERE expanded_at IS NULL AND (?::bigint IS NULL OR id = ?::bigint)
        ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`;

/** The oldest unexpanded events' ids, unlocked (to retry them one at a time). `?`: batch size. */
export const SELECT_UNEXPANDED_OUTBOX_IDS =
  "SELECT id::text AS id FROM alerts.outbox WHERE expanded_at IS NULL ORDER BY id LIMIT ?";

/** `?`: the events' ids as a JSON array. */
export const MARK_OUTBOX_EXPANDED =
  "UPDATE alerts.outbox SET expanded_at = now() WHERE id IN (SELECT jsonb_array_elements_text(?::jsonb)::bigint)";

/** Expanded into nothing, with the reason it could not be expanded (once: only while unexpanded). */
export const SET_ASIDE_OUTBOX_EVENT = `UPDATE alerts.outbox SET expanded_at = now(), set_aside_at = now(), set_aside_reason = ?
          WHERE id = ?::bigint AND expanded_at IS NULL`;

export function claimOutboxEvents(
  em: EntityManager,
  claim: { onlyId: string | null; limit: number },
): Promise<OutboxEventRow[]> {
  return em.execute<OutboxEventRow[]>(CLAIM_OUTBOX_EVENTS, [claim.onlyId, claim.onlyId, claim.limit]);
}

export async function selectUnexpandedOutboxIds(em: EntityManager, limit: number): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(SELECT_UNEXPANDED_OUTBOX_IDS, [limit]);
  return rows.map((row) => row.id);
}

export async function markOutboxExpanded(em: EntityManager, ids: string[]): Promise<void> {
  await em.execute(MARK_OUTBOX_EXPANDED, [JSON.stringify(ids)]);
}

export async function setAsideOutboxEvent(em: EntityManager, id: string, reason: string): Promise<void> {
  await em.execute(SET_ASIDE_OUTBOX_EVENT, [reason, id]);
}
