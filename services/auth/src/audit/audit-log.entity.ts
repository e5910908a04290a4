import { defineEntity, type InferEntity, p } from "@pulsegate/db";
import type { AuditActorKind } from "./audit-entry.ts";

/** One row of the append-only audit log (written in batches by insert-audit-entries.ts). */
export const AuditLogEntrySchema = defineEntity({
  name: "AuditLogEntry",
  tableName: "audit_log",
  properties: {
    id: p.string().primary(),
    teamId: p.string(),
    at: p.datetime(),
    actorKind: p.string().$type<AuditActorKind>(),
    actorId: p.string().nullable(),
    actorName: p.string().nullable(),
    actorEmail: p.string().nullable(),
    action: p.string(),
    targetKind: p.string(),
    targetId: p.string(),
    details: p.json<Record<string, unknown>>(),
  },
});

export type AuditLogEntry = InferEntity<typeof AuditLogEntrySchema>;
