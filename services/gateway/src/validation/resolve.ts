import { checkOptionalString, isPlainObject } from "./field-checks.ts";
import { GROUP_KEY_MAX, type ParseResult, type ValidationDetail } from "./request-bodies.ts";

export type ResolveBody = { group_key: string };

/**
 * Validates an already JSON.parse'd resolve body: `group_key`, a required
 * non-empty string of at most 200 code points. Other fields are ignored.
 */
export function parseResolveBody(value: unknown): ParseResult<ResolveBody> {
  if (!isPlainObject(value)) return { ok: false, details: [{ field: "body", message: "body must be a JSON object." }] };
  const details: ValidationDetail[] = [];
  if (value.group_key === undefined) {
    details.push({ field: "group_key", message: "group_key is required: it names the alert to resolve." });
    return { ok: false, details };
  }
  const groupKey = checkOptionalString(value.group_key, "group_key", GROUP_KEY_MAX, details);
  if (groupKey === "") details.push({ field: "group_key", message: "group_key must not be empty." });
  if (details.length > 0 || groupKey === undefined) return { ok: false, details };
  return { ok: true, value: { group_key: groupKey } };
}
