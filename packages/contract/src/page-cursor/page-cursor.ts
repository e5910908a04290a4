import { InvalidError } from "@pulsegate/contract/errors";
import { isWithinInstantLimits } from "@pulsegate/contract/limits";
import { textFault } from "@pulsegate/contract/text";
import { PAGE_LIMITS } from "@pulsegate/sdk";

/*
 * The two cursor formats of the admin API, and the only code that reads them. A cursor is opaque:
 * decoding takes back exactly what encoding made and nothing else (null), so whatever a caller
 * invents is refused as invalid_cursor before it can reach a query.
 */

/** Opaque keyset cursor over (time, id), newest first: teams, alerts and the audit log page with it. */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString("base64url");
}

export function decodeCursor(cursor: string): { at: string; id: string } | null {
  if (cursor.length > PAGE_LIMITS.cursorMaxLength) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [at, id] = value as unknown[];
  if (typeof at !== "string" || typeof id !== "string" || id === "" || textFault(id) !== null) return null;
  // A time PostgreSQL and Date both hold, spelled as toISOString spells it (not "-1" nor year 0000).
  const date = new Date(at);
  if (!isWithinInstantLimits(date) || date.toISOString() !== at) return null;
  // Base64url decoding skips characters it does not know: only the exact text encoding makes is ours.
  return encodeCursor(date, id) === cursor ? { at, id } : null;
}

/** The largest PostgreSQL bigint, the type of the ids occurrence and ping pages are cut at. */
const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** Cursor of the lists paged by a bigint id, newest first (an alert's occurrences, a monitor's pings): the last id of the page. */
export const encodeIdCursor = (id: string): string => id;

/** The id a bigint cursor names, as canonical decimal text (1 to 2^63 − 1), or null. */
export function decodeIdCursor(cursor: string): string | null {
  if (!/^[1-9][0-9]{0,18}$/.test(cursor) || BigInt(cursor) > MAX_BIGINT) return null;
  return cursor;
}

/** Page sizes and the cursor length of every list of the admin API: the SDK's, which callers get too. */
export { PAGE_LIMITS };

/** 0 (unset) is the default page size; anything else is kept within 1..max. */
export function pageSize(limit: number): number {
  if (!Number.isInteger(limit) || limit <= 0) return PAGE_LIMITS.default;
  return Math.min(limit, PAGE_LIMITS.max);
}

const INVALID_CURSOR = "The cursor is not one this API returned.";

/**
 * What every list answers for a cursor it did not make (a list answered in one page makes none),
 * naming the `cursor` query parameter.
 */
export const invalidCursor = () =>
  new InvalidError("invalid_cursor", INVALID_CURSOR, [{ field: "cursor", message: INVALID_CURSOR }]);
