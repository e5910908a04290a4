import { z } from "zod";

/** Thrown at start-up; its message names every failing variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Validates `source` (process.env by default) against a zod object whose keys
 * are environment variable names, and returns the typed result.
 */
export function loadConfig<S extends z.ZodRawShape>(
  shape: S,
  source: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const variable = issue.path.join(".") || "(environment)";
    return `${variable}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
}
