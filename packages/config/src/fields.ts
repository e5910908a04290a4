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
  grpcAddress: (fallback: string) =>
    z
      .string()
      .regex(/^[^\s:]+:\d{1,5}$/, "must be host:port")
      .default(fallback),
};
