export { monthUsage, quotaAllowsOneMore, quotaKey, quotaMonth, secondsUntilNextQuotaMonth } from "./quota-period.ts";
