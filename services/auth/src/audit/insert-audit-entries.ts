import type { EntityManager } from "@pulsegate/db";
import type { AuditEntry } from "./audit-entry.ts";

/**
 * One statement for a whole batch, and entries already stored (a batch sent again after a lost
 * answer) are skipped: ids are chosen by the recorder.
 */
const INSERT_AUDIT_ENTRIES = `
  INSERT INTO auth.audit_log (id, team_id, at, actor_kind, actor_id, actor_name, actor_email, action, target_kind,
         target_id, details)
  SELECT id, team_id, at, actor_kind, actor_id, actor_name, actor_email, action, target_kind, target_id, details
    FROM jsonb_to_recordset(?::jsonb) AS e(id text, team_id text, at timestamptz, actor_kind text, actor_id text,
         actor_name text, actor_email text, action text, target_kind text, target_id text, details jsonb)
  ON CONFLICT (id) DO NOTHING`;

export async function insertAuditEntries(em: EntityManager, entries: AuditEntry[]): Promise<void> {
  const rows = entries.map((entry) => ({
    id: entry.id,
    team_id: entry.teamId,
    at: entry.at.toISOString(),
    actor_kind: entry.actor.kind,
    actor_id: entry.actor.id,
    actor_name: entry.actor.name,
    actor_email: entry.actor.email,
    action: entry.action,
    target_kind: entry.target.kind,
    target_id: entry.target.id,
    details: entry.details,
  }));
  await em.execute(INSERT_AUDIT_ENTRIES, [JSON.stringify(rows)]);
}
