import type { ValidationDetail } from "./request-bodies.ts";

/**
 * A number of a body that a double cannot keep as sent: its path in the body (`metadata.big`), the
 * top-level field it sits in (`metadata`), and its text.
 */
export type InexactNumber = { field: string; top: string; source: string };

/** A parsed body, with the numbers in it that would not be stored as sent (in the order its keys enumerate). */
export type ParsedJson = { value: unknown; inexactNumbers: InexactNumber[] };

/**
 * The raw text may hold a number a double does not keep: a number token (after `:`, `,`, `[` or
 * white space) with more than 15 significant digits (every decimal of at most 15 keeps its value),
 * an exponent (1e400, 1e-400), or a minus zero. Text inside a string that merely looks like one
 * ("id: 1234567890123456789") also matches, which only costs the precise path; a hex hash or a date
 * in a string does not; a number that needs the precise path always matches.
 */
const MAY_HOLD_INEXACT_NUMBER = /[:,[\s](?:-?\d(?:\.?\d){15}|-?\d+(?:\.\d+)?[eE]|-0(?:\.0+)?(?![\d.]))/;

/** `-12.50e1` → `-0.125e3`: sign, significant digits and decimal exponent, zeros trimmed ("0", "-0"). */
function canonicalDecimal(text: string): string {
  const negative = text.startsWith("-");
  const exponentAt = text.search(/[eE]/);
  const mantissa = text.slice(negative ? 1 : 0, exponentAt < 0 ? text.length : exponentAt);
  const exponent = exponentAt < 0 ? 0 : Number(text.slice(exponentAt + 1));
  const dot = mantissa.indexOf(".");
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  let start = 0;
  while (start < digits.length && digits[start] === "0") start++;
  let end = digits.length;
  while (end > start && digits[end - 1] === "0") end--;
  const sign = negative ? "-" : "";
  if (start === end) return `${sign}0`;
  return `${sign}0.${digits.slice(start, end)}e${(dot < 0 ? mantissa.length : dot) + exponent - start}`;
}

/**
 * Whether the number written `source` survives as the double `value`: printing the double gives
 * back the same decimal value (0.1, 1.50 and 1e3 do; 1e400, 1e-400, -0 and digits a double
 * cannot hold, such as 123456789012345678901234567890, do not).
 */
export function keepsDecimal(source: string, value: number): boolean {
  return Number.isFinite(value) && canonicalDecimal(source) === canonicalDecimal(String(value));
}

type Reviver = (this: object, key: string, value: unknown, context: { source?: string }) => unknown;

/**
 * JSON.parse that also reports the numbers a double would not keep as sent. The common body holds
 * none and costs one regular-expression scan on top of JSON.parse; one that may hold one is parsed
 * again with a reviver reading each number's source text, and only a body that does hold one is
 * walked for its paths. Throws what JSON.parse throws.
 */
export function parseJsonKeepingNumbers(text: string): ParsedJson {
  const value: unknown = JSON.parse(text);
  if (!MAY_HOLD_INEXACT_NUMBER.test(text)) return { value, inexactNumbers: [] };
  const inexact = new Map<object, Map<string, string>>();
  const noteInexact: Reviver = function (key, parsed, context) {
    if (typeof parsed === "number" && context.source !== undefined && !keepsDecimal(context.source, parsed)) {
      const keys = inexact.get(this) ?? new Map<string, string>();
      inexact.set(this, keys.set(key, context.source));
    }
    return parsed;
  };
  const revived: unknown = JSON.parse(text, noteInexact as Parameters<typeof JSON.parse>[1]);
  return { value: revived, inexactNumbers: inexact.size === 0 ? [] : pathsOf(revived, inexact) };
}

/** The inexact numbers' paths (`metadata.list[1].n`), depth first in key order; iterative, like the text check. */
function pathsOf(root: unknown, inexact: Map<object, Map<string, string>>): InexactNumber[] {
  const found: InexactNumber[] = [];
  type Pending = { value: unknown; field: string; top: string; source?: string | undefined };
  const pending: Pending[] = [{ value: root, field: "", top: "" }];
  while (pending.length > 0) {
    const { value, field, top, source } = pending.pop() as Pending;
    if (source !== undefined) found.push({ field, top, source });
    if (typeof value !== "object" || value === null) continue;
    const keys = inexact.get(value);
    const entries: Pending[] = Array.isArray(value)
      ? value.map((item, index) => ({
          value: item,
          field: `${field}[${index}]`,
          top,
          source: keys?.get(String(index)),
        }))
      : Object.entries(value).map(([key, item]) => ({
          value: item,
          field: field ? `${field}.${key}` : key,
          top: field ? top : key,
          source: keys?.get(key),
        }));
    for (let index = entries.length - 1; index >= 0; index--) pending.push(entries[index] as Pending);
  }
  return found;
}

/** The refusal of one: the number as sent (shortened), and what to do instead. */
export function inexactNumberProblem({ field, source }: Pick<InexactNumber, "field" | "source">): ValidationDetail {
  const shown = source.length > 24 ? `${source.slice(0, 24)}…` : source;
  return { field, message: `${field}: the number ${shown} cannot be stored exactly; send it as a string.` };
}
