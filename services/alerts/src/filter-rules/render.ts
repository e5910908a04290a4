import type { FilterRule } from "./filter-rule.ts";

/**
 * Human-readable form used as the filtered `reason`: field, op, then the value as
 * JSON text, e.g. `metadata.env == "production"`; exists ops have no value:
 * `metadata.x exists`.
 */
export function renderRule(rule: FilterRule): string {
  if (rule.op === "exists" || rule.op === "not exists") return `${rule.field} ${rule.op}`;
  return `${rule.field} ${rule.op} ${JSON.stringify(rule.value) ?? "null"}`;
}
