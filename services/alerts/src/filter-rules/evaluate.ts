import { parseField } from "./field.ts";
import type { FilterResult, FilterRule, FilterSubject } from "./filter-rule.ts";
import { deepEqual, isIndexSegment, isPlainObject } from "./json-values.ts";
import { renderRule } from "./render.ts";

/*
 * Evaluation semantics (all rules must hold; the first failing rule is the reason):
 *
 * - Field lookup: "title" and "severity" (the effective severity, sev0..sev4) are
 *   always present. "metadata.a.b" walks own keys of nested objects; a canonical
 *   integer segment ("0", "12") indexes into an array. Anything else (non-object
 *   metadata, missing key, index out of range, walking into a scalar) is MISSING.
 *   A key present with value null EXISTS (its value is null).
 * - Missing field: `not exists`, `!=` and `not in` HOLD (PagerDuty-like: "env !=
 *   production" accepts events without an env); every other op FAILS.
 * - `==` / `!=`: deep JSON equality (object key order ignored, array order matters).
 * - `in` / `not in`: value is an array; membership by deep equality.
 * - `contains`: string field + string value -> substring; array field -> some
 *   element deep-equals the value; anything else fails.
 * - `starts with`: string field and string value only, else fails.
 * - `>` `>=` `<` `<=`: number vs number, or string vs string (lexicographic, JS
 *   UTF-16 code unit order; "sev0" < "sev3"), else fails.
 * - No regular expressions anywhere (no ReDoS surface).
 * - A malformed rule (unknown field/op, wrong value shape) fails rather than throws.
 */
export function evaluateFilterRules(rules: readonly FilterRule[], subject: FilterSubject): FilterResult {
  for (const rule of rules) {
    if (!ruleHolds(rule, subject)) return { accepted: false, reason: renderRule(rule) };
  }
  return { accepted: true };
}

type Lookup = { found: true; value: unknown } | { found: false };
const MISSING: Lookup = { found: false };

function lookup(field: string, subject: FilterSubject): Lookup | null {
  const parsed = parseField(field);
  if (!parsed.ok) return null;
  if (parsed.kind === "title") return { found: true, value: subject.title };
  if (parsed.kind === "severity") return { found: true, value: subject.severity };
  let current: unknown = subject.metadata;
  for (const segment of parsed.path) {
    if (Array.isArray(current)) {
      if (!isIndexSegment(segment)) return MISSING;
      const index = Number(segment);
      if (index >= current.length) return MISSING;
      current = current[index];
    } else if (isPlainObject(current)) {
      if (!Object.hasOwn(current, segment)) return MISSING;
      current = current[segment];
    } else {
      return MISSING;
    }
  }
  return current === undefined ? MISSING : { found: true, value: current };
}

function ruleHolds(rule: FilterRule, subject: FilterSubject): boolean {
  const found = lookup(rule.field, subject);
  if (found === null) return false; // malformed field
  const { op, value: expected } = rule;

  if (!found.found) return op === "not exists" || op === "!=" || op === "not in";
  const actual = found.value;

  switch (op) {
    case "exists":
      return true;
    case "not exists":
      return false;
    case "==":
      return deepEqual(actual, expected);
    case "!=":
      return !deepEqual(actual, expected);
    case "in":
      return Array.isArray(expected) && expected.some((item) => deepEqual(actual, item));
    case "not in":
      return Array.isArray(expected) && !expected.some((item) => deepEqual(actual, item));
    case "contains":
      if (typeof actual === "string") return typeof expected === "string" && actual.includes(expected);
      if (Array.isArray(actual)) return actual.some((item) => deepEqual(item, expected));
      return false;
    case "starts with":
      return typeof actual === "string" && typeof expected === "string" && actual.startsWith(expected);
    case ">":
    case ">=":
    case "<":
    case "<=":
      return compare(op, actual, expected);
    default:
      return false; // unknown op
  }
}

function compare(op: ">" | ">=" | "<" | "<=", a: unknown, b: unknown): boolean {
  const comparable =
    (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string");
  if (!comparable) return false;
  const x = a as number | string;
  const y = b as number | string;
  switch (op) {
    case ">":
      return x > y;
    case ">=":
      return x >= y;
    case "<":
      return x < y;
    case "<=":
      return x <= y;
  }
}
