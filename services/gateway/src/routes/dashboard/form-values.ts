/**
 * Form fields to admin API body fields. Nothing is validated here: a value that is not what the
 * API takes is passed on as typed, so the API answers with its own message and field name.
 */

/** "" is absent; digits are a number; anything else goes on as text, for the API to refuse. */
export function integerField(form: URLSearchParams, name: string): number | string | undefined {
  const value = (form.get(name) ?? "").trim();
  if (value === "") return undefined;
  return /^-?\d+$/.test(value) ? Number(value) : value;
}

export function textField(form: URLSearchParams, name: string): string | undefined {
  const value = form.get(name);
  return value === null || value.trim() === "" ? undefined : value.trim();
}

/** A checkbox sent with a hidden "false" before it: checked sends both, so any "true" wins. */
export function booleanField(form: URLSearchParams, name: string): boolean | undefined {
  const values = form.getAll(name);
  if (values.length === 0) return undefined;
  return values.includes("true");
}

/** A date (YYYY-MM-DD) as the end of that day, UTC; "" is null (no expiry). */
export function endOfDayField(form: URLSearchParams, name: string): string | null {
  const value = (form.get(name) ?? "").trim();
  if (value === "") return null;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.000Z` : value;
}

/**
 * A `datetime-local` field, read as UTC (the form says so): `2026-03-01T02:00` is
 * `2026-03-01T02:00:00Z`; "" is absent; anything else goes on as typed, for the API to refuse.
 */
export function utcDateTimeField(form: URLSearchParams, name: string): string | undefined {
  const value = (form.get(name) ?? "").trim();
  if (value === "") return undefined;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return `${value}:00Z`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value)) return `${value}Z`;
  return value;
}

/** A JSON field: its value when it parses, else the text as typed (the API names what is wrong). */
export function jsonField(form: URLSearchParams, name: string): unknown {
  const value = (form.get(name) ?? "").trim();
  if (value === "") return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Drops undefined fields, so the API sees only what the form set. */
export function defined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}
