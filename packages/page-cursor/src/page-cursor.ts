import { InvalidError } from "@pulsegate/errors";

/** Opaque keyset cursor over (time, id), newest first: the one format every list of the admin API pages with. */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString("base64url");
}

export function decodeCursor(cursor: string): { at: string; id: string } | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string" &&
      !Number.isNaN(Date.parse(value[0]))
    ) {
      return { at: value[0], id: value[1] };
    }
  } catch {
    // Falls through: not one of ours.
  }
  return null;
}

/**
 * Page sizes and the cursor length of every list of the admin API: the services page with them,
 * the gateway's list schemas read them.
 */
export const PAGE_LIMITS = { default: 50, max: 200, cursorMaxLength: 1_000 } as const;

/** 0 (unset) is the default page size; anything else is kept within 1..max. */
export function pageSize(limit: number): number {
  if (!Number.isInteger(limit) || limit <= 0) return PAGE_LIMITS.default;
  return Math.min(limit, PAGE_LIMITS.max);
}

/** What every list answers for a cursor `decodeCursor` (or the list's own format) refuses. */
export const invalidCursor = () => new InvalidError("invalid_cursor", "The cursor is not one this API returned.");
