export { env } from "./fields.ts";
export { ConfigError, loadConfig } from "./load-config.ts";
