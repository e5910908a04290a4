import { jsonBoundsProblem } from "@pulsegate/contract/limits";
import { SEVERITIES } from "@pulsegate/contract/vocabulary";
import { parseField } from "./field.ts";
import {
  FILTER_OPS,
  type FilterRule,
  type FilterRuleError,
  isExistsOp,
  isFilterOp,
  MAX_FILTER_RULES,
  VALUE_BOUNDS,
} from "./filter-rule.ts";
import { isJsonValue, isPlainObject } from "./json-values.ts";

const ROOT = "filterRules";
const RULE_KEYS = new Set(["field", "op", "value"]);
const SEVERITY_VALUE_OPS = new Set(["==", "!=", "in", "not in", ">", ">=", "<", "<="]);

/**
 * Validates the admin API's `filterRules` array and returns normalised rules.
 * Every problem is reported (not only the first), with paths like `filterRules[2].op`.
 *
 * - at most 50 rules; each rule is an object with only `field`, `op`, `value`;
 * - `field` follows the grammar in field.ts (non-empty segments, depth <= 10);
 * - `value` is required (null is a value) except for `exists` / `not exists`, where
 *   any given value is ignored and dropped from the normalised rule;
 * - `value` must be JSON nested at most 10 levels (deeper could never match metadata) and at
 *   most 10 KiB as JSON (WEBHOOK_LIMITS);
 * - `in` / `not in` need an array, `starts with` a string, `>` `>=` `<` `<=` a number
 *   or a string;
 * - for `severity`, values compared by equality/membership/order must be sev0..sev4
 *   (so a typo like "SEV1" is rejected instead of silently filtering everything).
 */
export function validateFilterRules(input: unknown): { rules: FilterRule[] } | { errors: FilterRuleError[] } {
  if (!Array.isArray(input)) {
    return { errors: [{ field: ROOT, message: `${ROOT} must be an array.` }] };
  }
  if (input.length > MAX_FILTER_RULES) {
    return {
      errors: [
        {
          field: ROOT,
          message: `${ROOT} must contain at most ${MAX_FILTER_RULES} rules.`,
        },
      ],
    };
  }
  const errors: FilterRuleError[] = [];
  const rules: FilterRule[] = [];
  input.forEach((raw: unknown, index) => {
    const rule = validateRule(raw, `${ROOT}[${index}]`, errors);
    if (rule) rules.push(rule);
  });
  return errors.length > 0 ? { errors } : { rules };
}

function validateRule(raw: unknown, at: string, errors: FilterRuleError[]): FilterRule | null {
  if (!isPlainObject(raw)) {
    errors.push({
      field: at,
      message: `${at} must be an object with field, op and value.`,
    });
    return null;
  }
  const before = errors.length;
  const add = (key: string, message: string): void => {
    const field = `${at}.${key}`;
    errors.push({ field, message: `${field} ${message}` });
  };

  for (const key of Object.keys(raw)) {
    if (!RULE_KEYS.has(key)) add(key, "is not a known rule property (expected field, op, value).");
  }

  const field = raw.field;
  let fieldKind: string | null = null;
  if (field === undefined) add("field", "is required.");
  else if (typeof field !== "string") add("field", "must be a string.");
  else {
    const parsed = parseField(field);
    if (parsed.ok) fieldKind = parsed.kind;
    else add("field", parsed.message);
  }

  const op = raw.op;
  if (op === undefined) add("op", "is required.");
  else if (!isFilterOp(op)) add("op", `must be one of ${FILTER_OPS.join(", ")}.`);

  let value: unknown;
  if (isFilterOp(op) && !isExistsOp(op)) {
    value = raw.value;
    if (value === undefined) add("value", `is required for the ${op} operator.`);
    else {
      const problem = valueProblem(op, value, fieldKind);
      if (problem !== null) add("value", problem);
    }
  }

  if (errors.length > before || typeof field !== "string" || !isFilterOp(op)) return null;
  return isExistsOp(op) ? { field, op } : { field, op, value };
}

/** Completes "<at>.value ..." when the value does not fit the op/field, else null. */
function valueProblem(op: string, value: unknown, fieldKind: string | null): string | null {
  // Bounds first: nothing below walks a value deeper or bigger than they allow.
  const bounds = jsonBoundsProblem(value, VALUE_BOUNDS);
  if (bounds !== null) return `${bounds}.`;
  if (!isJsonValue(value)) return "must be a JSON value.";
  switch (op) {
    case "in":
    case "not in":
      if (!Array.isArray(value)) return `must be an array for the ${op} operator.`;
      break;
    case "starts with":
      if (typeof value !== "string") return `must be a string for the ${op} operator.`;
      break;
    case ">":
    case ">=":
    case "<":
    case "<=":
      if (typeof value !== "number" && typeof value !== "string") {
        return `must be a number or a string for the ${op} operator.`;
      }
      break;
  }
  if (fieldKind === "severity" && SEVERITY_VALUE_OPS.has(op)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (!values.every((v) => (SEVERITIES as readonly unknown[]).includes(v))) {
      const what = Array.isArray(value) ? "must only contain" : "must be one of";
      return `${what} ${SEVERITIES.join(", ")} when field is severity.`;
    }
  }
  return null;
}
