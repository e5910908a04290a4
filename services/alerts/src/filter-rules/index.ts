export { evaluateFilterRules } from "./evaluate.ts";
export { renderRule } from "./render.ts";
export type {
  FilterOp,
  FilterResult,
  FilterRule,
  FilterRuleError,
  FilterSubject,
} from "./types.ts";
export { FILTER_OPS, MAX_FILTER_RULES } from "./types.ts";
export { validateFilterRules } from "./validate.ts";
