import { WEBHOOK_LIMITS } from "@pulsegate/contract/limits";
import { FILTER_OPS, type FilterOp } from "@pulsegate/contract/vocabulary";

export { FILTER_OPS, type FilterOp };

/**
 * One accept condition. `field` is "title", "severity" or "metadata.<dot.path>".
 * `value` is absent for "exists" / "not exists" and required (any JSON) otherwise.
 */
export type FilterRule = { field: string; op: FilterOp; value?: unknown };

export type FilterRuleError = { field: string; message: string };

export type FilterSubject = {
  title: string;
  severity: string;
  metadata: unknown;
};

export type FilterResult = { accepted: true } | { accepted: false; reason: string };

export const MAX_FILTER_RULES = WEBHOOK_LIMITS.maxFilterRules;
/** How deep and how big a rule's value may be. */
export const VALUE_BOUNDS = {
  maxDepth: WEBHOOK_LIMITS.filterValueMaxDepth,
  maxBytes: WEBHOOK_LIMITS.filterValueMaxBytes,
} as const;

export function isFilterOp(value: unknown): value is FilterOp {
  return typeof value === "string" && (FILTER_OPS as readonly string[]).includes(value);
}

export function isExistsOp(op: FilterOp): op is "exists" | "not exists" {
  return op === "exists" || op === "not exists";
}
