export { loadConfig, ConfigError } from "./load-config.ts";
export { env } from "./fields.ts";
