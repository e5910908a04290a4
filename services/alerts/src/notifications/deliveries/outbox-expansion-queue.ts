import type { EntityManager } from "@pulsegate/db";

/**
 * The expansion's queue: `alerts.outbox_pending`, one narrow row per event awaiting expansion, oldest
 * first (migration 0022; docs/decisions.md, "The outbox's queue beside it"). Events are claimed in
 * the expanding transaction, their queue rows locked (SKIP LOCKED: replicas take disjoint events; a
 * queue row another replica deleted meanwhile is skipped), then taken out of the queue,
 * or set aside when one cannot be expanded on its own. An event expanded leaves the queue and its
 * outbox row stays as written (0023); one set aside is marked there (`expanded_at`, `set_aside_at`),
 * and the trigger on `expanded_at` takes it out of the queue.
 */

/** An outbox event as the expansion routes it. */
export type OutboxEventRow = {
  id: string;
  team_id: string;
  alert_id: string | null;
  event_type: string;
  severity: string | null;
};

/**
 * Locks the oldest queued events, or only the one given, then reads their outbox rows by id (the
 * queue first, so no plan walks the outbox in id order to meet it). `?`: the event id or null
 * (twice), batch size.
 */
export const CLAIM_OUTBOX_EVENTS = `WITH claimed AS (
         SELECT outbox_id FROM alerts.outbox_pending WHERE ?::bigint IS NULL OR outbox_id = ?::bigint
          ORDER BY outbox_id LIMIT ? FOR UPDATE SKIP LOCKED)
       SELECT o.id::text AS id, o.team_id, o.alert_id, o.event_type, o.payload->'alert'->>'severity' AS severity
         FROM claimed c JOIN alerts.outbox o ON o.id = c.outbox_id
        ORDER BY o.id`;

/** The oldest unexpanded events' ids, unlocked (to retry them one at a time). `?`: batch size. */
export const SELECT_UNEXPANDED_OUTBOX_IDS =
  "SELECT outbox_id::text AS id FROM alerts.outbox_pending ORDER BY outbox_id LIMIT ?";

/** Out of the queue: a narrow row deleted, the event's row left as written. `?`: the events' ids as a JSON array. */
export const MARK_OUTBOX_EXPANDED =
  "DELETE FROM alerts.outbox_pending WHERE outbox_id IN (SELECT jsonb_array_elements_text(?::jsonb)::bigint)";

/**
 * Expanded into nothing, with the reason it could not be expanded (once: only while queued; the
 * trigger on `expanded_at` takes it out of the queue). The queue row is locked first, as the claim
 * locks it: a replica expanding the event meanwhile is waited for, and the event it took out of the
 * queue is not marked. `?`: the event id, the reason.
 */
export const SET_ASIDE_OUTBOX_EVENT = `WITH queued AS (
         SELECT outbox_id FROM alerts.outbox_pending WHERE outbox_id = ?::bigint FOR UPDATE)
       UPDATE alerts.outbox SET expanded_at = now(), set_aside_at = now(), set_aside_reason = ?
        WHERE id IN (SELECT outbox_id FROM queued)`;

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

/** True when this call set the event aside; false when it was no longer queued (expanded or set aside meanwhile). */
export async function setAsideOutboxEvent(em: EntityManager, id: string, reason: string): Promise<boolean> {
  const result = await em.execute<{ affectedRows: number }>(SET_ASIDE_OUTBOX_EVENT, [id, reason], "run");
  return result.affectedRows > 0;
}
