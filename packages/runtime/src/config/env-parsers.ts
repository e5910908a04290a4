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
  /** One of `values` (named in the error otherwise). */
  choice: <const V extends readonly [string, ...string[]]>(values: V, fallback: V[number]) =>
    z.enum(values).default(fallback),
  nodeEnv: () => z.enum(["development", "test", "production"]).default("development"),
  logLevel: () => z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * A gRPC target: `host:port` (resolved through DNS, every address used; an IPv6 literal in
   * brackets, `[fd00::1]:50051`), `dns:///host:port` (the
   * same, spelled out), or `ipv4:host:port,host:port…` (a fixed list, as `npm start -- --replicas`).
   */
  grpcAddress: (fallback: string) =>
    z
      .string()
      .regex(
        /^(?:(?:dns:\/\/\/)?(?:\[[0-9A-Fa-f:.]+\]|[^\s:/,[\]]+):\d{1,5}|ipv4:[0-9.]+:\d{1,5}(?:,[0-9.]+:\d{1,5})*)$/,
        "must be host:port, [IPv6]:port, dns:///host:port or ipv4:host:port[,host:port…]",
      )
      .default(fallback),
  /**
   * SHUTDOWN_TIMEOUT_MS: from SIGTERM to exit, every shutdown step sharing it. Below what the
   * platform waits before SIGKILL (Kubernetes: terminationGracePeriodSeconds less the preStop delay).
   */
  shutdownTimeoutMs: (fallback: number) => z.coerce.number().int().min(1_000).max(600_000).default(fallback),
  /** GRPC_DRAIN_MS: how long a gRPC service keeps serving after SIGTERM while callers are still connected. */
  grpcDrainMs: () => z.coerce.number().int().min(0).max(600_000).default(5_000),
  /**
   * Where a gRPC server listens: `host:port` or `[IPv6]:port`. `[::]:port` is every interface,
   * IPv6 and IPv4 alike (IPv4 only where the machine has no IPv6).
   */
  listenAddress: (fallback: string) =>
    z
      .string()
      .regex(/^(?:\[[0-9A-Fa-f:.]+\]|[^\s:/[\]]+):\d{1,5}$/, "must be host:port or [IPv6]:port, e.g. [::]:50051")
      .default(fallback),
  /** Server side of the same balancing: how long a client connection lives (unset: create-server.ts's default). */
  grpcMaxConnectionAgeMs: () => z.coerce.number().int().min(1_000).max(86_400_000).optional(),
};
