import { z } from "zod";

/** Reusable environment field parsers, so every service reads variables alike. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  int: (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
    z.coerce.number().int().min(min).max(max).default(fallback),
  string: (fallback: string) => z.string().min(1).default(fallback),
  optionalString: () =>
    z
      .string()
      .optional()
      .transform((value) => (value === "" ? undefined : value)),
  url: (fallback?: string) => (fallback === undefined ? z.url() : z.url().default(fallback)),
  boolean: (fallback: boolean) =>
    z
      .enum(["true", "false", "1", "0", ""])
      .default(fallback ? "true" : "false")
      .transform((value) => value === "true" || value === "1"),
  nodeEnv: () => z.enum(["development", "test", "production"]).default("development"),
  logLevel: () => z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * A gRPC target: `host:port` (resolved through DNS, every address used), `dns:///host:port` (the
   * same, spelled out), or `ipv4:host:port,host:port…` (a fixed list, as `npm start -- --replicas`).
   */
  grpcAddress: (fallback: string) =>
    z
      .string()
      .regex(
        /^(?:(?:dns:\/\/\/)?[^\s:/,]+:\d{1,5}|ipv4:[0-9.]+:\d{1,5}(?:,[0-9.]+:\d{1,5})*)$/,
        "must be host:port, dns:///host:port or ipv4:host:port[,host:port…]",
      )
      .default(fallback),
  /**
   * SHUTDOWN_TIMEOUT_MS: from SIGTERM to exit, every shutdown step sharing it. Below what the
   * platform waits before SIGKILL (Kubernetes: terminationGracePeriodSeconds less the preStop delay).
   */
  shutdownTimeoutMs: (fallback: number) => z.coerce.number().int().min(1_000).max(600_000).default(fallback),
  /** GRPC_DRAIN_MS: how long a gRPC service keeps serving after SIGTERM while callers are still connected. */
  grpcDrainMs: () => z.coerce.number().int().min(0).max(600_000).default(5_000),
  /** Server side of the same balancing: how long a client connection lives (unset: create-server.ts's default). */
  grpcMaxConnectionAgeMs: () => z.coerce.number().int().min(1_000).max(86_400_000).optional(),
};
