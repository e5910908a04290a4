import { InvalidArgumentError } from "commander";

/** A whole number ≥ `min` (commander turns the error into a usage error, exit 1). */
export function integer(min = 0) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
      throw new InvalidArgumentError(`Expected a whole number ≥ ${min}.`);
    }
    return Number(value);
  };
}

/** A JSON value of the given kind, e.g. `--metadata '{"env":"production"}'`. */
export function json(kind: "object" | "array") {
  return (value: string): Record<string, unknown> | unknown[] => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      throw new InvalidArgumentError(`Not valid JSON: ${(error as Error).message}`);
    }
    const isArray = Array.isArray(parsed);
    const ok = kind === "array" ? isArray : typeof parsed === "object" && parsed !== null && !isArray;
    if (!ok) throw new InvalidArgumentError(`Expected a JSON ${kind}.`);
    return parsed as Record<string, unknown> | unknown[];
  };
}

/** Repeated `--meta key=value`: each adds a string field (the first "=" separates key and value). */
export function keyValue(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf("=");
  if (at <= 0) throw new InvalidArgumentError(`Expected key=value, got "${value}".`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

/** An ISO 8601 date-time, what the admin API takes. */
export function timestamp(value: string): string {
  if (Number.isNaN(Date.parse(value)) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    throw new InvalidArgumentError("Expected an ISO 8601 date-time such as 2026-12-31T23:59:59Z.");
  }
  return new Date(value).toISOString();
}

/**
 * A date-time, or "never" kept as it is (commander turns a null from a parser into ""):
 * the command sends null for it, which clears the date.
 */
export function timestampOrNever(value: string): string {
  return value === "never" ? "never" : timestamp(value);
}
