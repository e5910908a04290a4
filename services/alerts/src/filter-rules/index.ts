export { evaluateFilterRules } from "./evaluate.ts";
export type {
  FilterOp,
  FilterResult,
  FilterRule,
  FilterRuleError,
  FilterSubject,
} from "./filter-rule.ts";
export { FILTER_OPS, MAX_FILTER_RULES } from "./filter-rule.ts";
export { renderRule } from "./render.ts";
export { validateFilterRules } from "./validate.ts";
