/**
 * A timestamptz as a raw query returns it: a Date from pg, text from the embedded database
 * (whose connection hands some timestamps back as strings).
 */
export type RowDate = Date | string;

export function rowDate(value: RowDate): Date {
  return value instanceof Date ? value : new Date(value);
}

export function rowDateOrNull(value: RowDate | null): Date | null {
  return value === null ? null : rowDate(value);
}
