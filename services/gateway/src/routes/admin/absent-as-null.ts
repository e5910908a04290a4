/**
 * proto3 has no null: an unset timestamp arrives as undefined and an unset string as "". The
 * admin API's JSON says null for both.
 */

/** An optional timestamp as ISO 8601 text, or null when unset. */
export const iso = (date: Date | undefined): string | null => (date ? date.toISOString() : null);

/** An optional string, or null when unset (empty). */
export const orNull = (value: string): string | null => (value === "" ? null : value);

/** JSON text stored by a service, back to a value; unset ("") is null, and text that is not JSON stays text. */
export function fromJsonText(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
