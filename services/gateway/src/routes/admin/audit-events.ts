import type { AuditEvent } from "./record-audit.ts";

/** `<kind>.create` of a named resource: its name, and any other facts, as details. */
export const createdEvent = (
  kind: string,
  resource: { id: string; name: string },
  details: Record<string, unknown> = {},
): AuditEvent => ({
  action: `${kind}.create`,
  target: { kind, id: resource.id },
  details: { name: resource.name, ...details },
});

/** `<kind>.update` by a PATCH: the fields sent, and `enabled` when it was one of them. */
export const updatedEvent = (kind: string, id: string, body: object): AuditEvent => {
  const { enabled } = body as { enabled?: unknown };
  return {
    action: `${kind}.update`,
    target: { kind, id },
    details: { fields: Object.keys(body), ...(typeof enabled === "boolean" ? { enabled } : {}) },
  };
};
