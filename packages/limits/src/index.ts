export { MONITOR_LIMITS } from "./monitor-limits.ts";
export { TEAM_LIMITS } from "./team-limits.ts";
export { WEBHOOK_LIMITS } from "./webhook-limits.ts";
