export { monthUsage, quotaAllowsOneMore, quotaKey, quotaMonth } from "./quota-period.ts";
