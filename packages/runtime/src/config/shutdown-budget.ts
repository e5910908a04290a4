import { ConfigError } from "./load-config.ts";

/**
 * A gRPC service's wait for its callers is the first step of its shutdown: it must leave the
 * budget room for the steps after it (stopping the server, workers, pools, the telemetry flush).
 */
export function checkDrainFitsShutdown(config: { GRPC_DRAIN_MS: number; SHUTDOWN_TIMEOUT_MS: number }): void {
  if (config.GRPC_DRAIN_MS < config.SHUTDOWN_TIMEOUT_MS) return;
  throw new ConfigError(
    `Invalid configuration:\n  GRPC_DRAIN_MS: must be shorter than SHUTDOWN_TIMEOUT_MS (${config.SHUTDOWN_TIMEOUT_MS} ms), which the whole shutdown shares`,
  );
}
