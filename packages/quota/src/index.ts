export { quotaAllowsOneMore, quotaKey, quotaMonth } from "./quota-period.ts";
