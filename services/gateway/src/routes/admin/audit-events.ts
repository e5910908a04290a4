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
export const updatedEvent = (kind: string, id: string, body: { enabled?: boolean | undefined }): AuditEvent => ({
  action: `${kind}.update`,
  target: { kind, id },
  details: { fields: Object.keys(body), ...(body.enabled === undefined ? {} : { enabled: body.enabled }) },
});
