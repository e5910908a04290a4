export { env } from "./env-parsers.ts";
export { ConfigError, loadConfig } from "./load-config.ts";
export { checkDrainFitsShutdown } from "./shutdown-budget.ts";
