import type { ErrorDetail } from "../errors.ts";

const MAX_DEPTH = 64;

/**
 * Where a JSON value holds U+0000, which PostgreSQL text and jsonb cannot
 * store: one detail per offending string or key, so the caller hears 400
 * naming the field instead of a 500 from the database.
 */
export function nulCharacterDetails(value: unknown, field: string, depth = 0): ErrorDetail[] {
  if (typeof value === "string") {
    return value.includes("\u0000")
      ? [{ field: field || "body", message: `${field || "body"} must not contain the NUL character (U+0000).` }]
      : [];
  }
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return [];
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => nulCharacterDetails(item, `${field}[${index}]`, depth + 1));
  }
  return Object.entries(value).flatMap(([key, item]) => {
    const path = field ? `${field}.${key}` : key;
    const keyDetails = key.includes("\u0000")
      ? [{ field: path, message: `${path}: keys must not contain the NUL character (U+0000).` }]
      : [];
    return [...keyDetails, ...nulCharacterDetails(item, path, depth + 1)];
  });
}
