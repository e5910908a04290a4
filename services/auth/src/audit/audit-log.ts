import { AUDIT_LIMITS } from "@pulsegate/contract/limits";
import { decodeCursor, encodeCursor, pageSize } from "@pulsegate/contract/page-cursor";
import type { EntityManager, Orm } from "@pulsegate/db";
import { authErrors } from "../errors.ts";
import { requireTeamExists } from "../teams/team-exists.ts";
import { AUDIT_ACTOR_KINDS, type AuditEntry } from "./audit-entry.ts";
import { type AuditLogEntry, AuditLogEntrySchema } from "./audit-log.entity.ts";
import { insertAuditEntries } from "./insert-audit-entries.ts";

function entryOf(row: AuditLogEntry): AuditEntry {
  return {
    id: row.id,
    teamId: row.teamId,
    at: row.at,
    actor: { kind: row.actorKind, id: row.actorId ?? null, name: row.actorName ?? null, email: row.actorEmail ?? null },
    action: row.action,
    target: { kind: row.targetKind, id: row.targetId },
    details: row.details,
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
    await insertAuditEntries(this.#em(), entries);
  }

  /**
   * A team's entries, newest first. A team that never existed is not found; a deleted one's entries
   * stay readable (they end with its deletion), as the record of who did what to it.
   */
  async list(teamId: string, limit: number, cursor: string): Promise<{ entries: AuditEntry[]; nextCursor: string }> {
    const size = pageSize(limit);
    const after = cursor ? decodeCursor(cursor) : null;
    if (cursor && !after) throw authErrors.invalidCursor();
    const em = this.#em();
    const rows = await em.find(
      AuditLogEntrySchema,
      after
        ? { teamId, $or: [{ at: { $lt: new Date(after.at) } }, { at: new Date(after.at), id: { $lt: after.id } }] }
        : { teamId },
      { orderBy: { at: "desc", id: "desc" }, limit: size + 1 },
    );
    if (rows.length === 0 && !cursor) await requireTeamExists(em, teamId);
    const page = rows.slice(0, size).map(entryOf);
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
