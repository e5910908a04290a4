import type { EntityManager, Orm } from "@pulsegate/db";
import { decodeCursor, encodeCursor, pageSize } from "@pulsegate/page-cursor";
import { authErrors } from "../errors.ts";
import { AUDIT_ACTOR_KINDS, type AuditActorKind, type AuditEntry } from "./audit-entry.ts";

/** Bounds of what one RecordAuditEntries call may carry. */
export const AUDIT_LIMITS = { maxBatch: 500, maxTextLength: 200, maxDetailsBytes: 4_096 } as const;

type AuditRow = {
  id: string;
  team_id: string;
  at: Date | string;
  actor_kind: AuditActorKind;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  target_kind: string;
  target_id: string;
  details: Record<string, unknown> | string;
};

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

function entryFromRow(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    teamId: row.team_id,
    at: toDate(row.at),
    actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name },
    action: row.action,
    target: { kind: row.target_kind, id: row.target_id },
    details: typeof row.details === "string" ? (JSON.parse(row.details) as Record<string, unknown>) : row.details,
  };
}

/**
 * The audit log of admin actions, append-only, read per team newest first. Entries carry ids
 * chosen by the recorder, so a batch sent again after a lost answer is stored once.
 */
export class AuditLog {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async record(entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    if (entries.length > AUDIT_LIMITS.maxBatch) {
      throw authErrors.invalidArgument("entries", `At most ${AUDIT_LIMITS.maxBatch} entries per call.`);
    }
    entries.forEach(checkEntry);
    const rows = entries.map((entry) => ({
      id: entry.id,
      team_id: entry.teamId,
      at: entry.at.toISOString(),
      actor_kind: entry.actor.kind,
      actor_id: entry.actor.id,
      actor_name: entry.actor.name,
      action: entry.action,
      target_kind: entry.target.kind,
      target_id: entry.target.id,
      details: entry.details,
    }));
    await this.#em().execute(
      `INSERT INTO auth.audit_log (id, team_id, at, actor_kind, actor_id, actor_name, action, target_kind, target_id, details)
       SELECT id, team_id, at, actor_kind, actor_id, actor_name, action, target_kind, target_id, details
         FROM jsonb_to_recordset(?::jsonb) AS e(id text, team_id text, at timestamptz, actor_kind text, actor_id text,
              actor_name text, action text, target_kind text, target_id text, details jsonb)
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  }

  /** A team's entries, newest first. The team must exist. */
  async list(teamId: string, limit: number, cursor: string): Promise<{ entries: AuditEntry[]; nextCursor: string }> {
    const size = pageSize(limit);
    const after = cursor ? decodeCursor(cursor) : null;
    if (cursor && !after) throw authErrors.invalidCursor();
    const em = this.#em();
    const [team] = await em.execute<{ id: string }[]>("SELECT id FROM auth.teams WHERE id = ?", [teamId]);
    if (!team) throw authErrors.teamNotFound();
    const rows = await em.execute<AuditRow[]>(
      `SELECT * FROM auth.audit_log
        WHERE team_id = ? AND (?::timestamptz IS NULL OR (at, id) < (?::timestamptz, ?))
        ORDER BY at DESC, id DESC LIMIT ?`,
      [teamId, after?.at ?? null, after?.at ?? null, after?.id ?? "", size + 1],
    );
    const page = rows.slice(0, size).map(entryFromRow);
    const last = page.at(-1);
    return {
      entries: page,
      nextCursor: rows.length > size && last ? encodeCursor(last.at, last.id) : "",
    };
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}

function checkEntry(entry: AuditEntry, index: number): void {
  const field = `entries[${index}]`;
  const texts = [entry.id, entry.teamId, entry.action, entry.target.kind, entry.target.id];
  if (texts.some((text) => text === "" || text.length > AUDIT_LIMITS.maxTextLength)) {
    throw authErrors.invalidArgument(field, `${field} needs an id, a team, an action and a target.`);
  }
  if (!(AUDIT_ACTOR_KINDS as readonly string[]).includes(entry.actor.kind)) {
    throw authErrors.invalidArgument(field, `${field} has no known actor kind.`);
  }
  if (Buffer.byteLength(JSON.stringify(entry.details)) > AUDIT_LIMITS.maxDetailsBytes) {
    throw authErrors.invalidArgument(field, `${field} has more than ${AUDIT_LIMITS.maxDetailsBytes} bytes of details.`);
  }
}
