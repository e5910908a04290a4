import { textFault, textProblem } from "@pulsegate/contract/text";
import type { ValidationDetail } from "./request-bodies.ts";

/** Length in Unicode code points (an emoji outside the BMP counts as 1; a lone surrogate as 1). */
export function codePointLength(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Optional string with a max length in code points. `undefined` means absent;
 * `null` and other non-strings are type errors ("x must be a string.").
 */
export function checkOptionalString(
  value: unknown,
  field: string,
  max: number,
  details: ValidationDetail[],
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    details.push({ field, message: `${field} must be a string.` });
    return undefined;
  }
  // U+0000 and unpaired surrogates cannot be stored as sent: refuse them rather than store something else.
  const fault = textFault(value);
  if (fault) {
    details.push(textProblem(field, fault));
    return undefined;
  }
  // Code points <= UTF-16 units, so only count when the cheap bound is exceeded.
  if (value.length > max && codePointLength(value) > max) {
    details.push({
      field,
      message: `${field} must be at most ${max} characters.`,
    });
    return undefined;
  }
  return value;
}

/** Optional string restricted to `allowed`; any other value (or type) is one error. */
export function checkOptionalEnum<T extends string>(
  value: unknown,
  field: string,
  allowed: readonly T[],
  details: ValidationDetail[],
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  details.push({
    field,
    message: `${field} must be one of ${allowed.join(", ")}.`,
  });
  return undefined;
}
