/*
 * Values as a raw query returns them: pg parses timestamps and arrays, the embedded database's
 * connection hands some back as text. Read them here, once.
 */

/** A timestamptz: a Date, or its text. */
export type RowDate = Date | string;

export function rowDate(value: RowDate): Date {
  return value instanceof Date ? value : new Date(value);
}

export function rowDateOrNull(value: RowDate | null): Date | null {
  return value === null ? null : rowDate(value);
}

/** A text[]: an array, or its `{a,"b"}` text. */
export function rowTextArray(value: string[] | string | null): string[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, "");
  return inner === "" ? [] : inner.split(",").map((item) => item.replace(/^"|"$/g, ""));
}
