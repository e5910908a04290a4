/** `user`: a person signed in to the dashboard through the identity provider (id: their subject). */
export const AUDIT_ACTOR_KINDS = ["admin", "api_key", "user"] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** One admin action: who did what to which resource, and a few non-secret details. */
export type AuditEntry = {
  id: string;
  teamId: string;
  at: Date;
  actor: { kind: AuditActorKind; id: string | null; name: string | null; email: string | null };
  action: string;
  target: { kind: string; id: string };
  details: Record<string, unknown>;
};
