export const AUDIT_ACTOR_KINDS = ["admin", "api_key"] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** One admin action: who did what to which resource, and a few non-secret details. */
export type AuditEntry = {
  id: string;
  teamId: string;
  at: Date;
  actor: { kind: AuditActorKind; id: string | null; name: string | null };
  action: string;
  target: { kind: string; id: string };
  details: Record<string, unknown>;
};
