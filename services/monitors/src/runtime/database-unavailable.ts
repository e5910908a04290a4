/** Thrown when a database attempt takes longer than the ping path may wait. */
export class DatabaseTimeoutError extends Error {
  override name = "DatabaseTimeoutError";
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

// SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57P (operator intervention).
const SQLSTATE_UNAVAILABLE = /^(08|53|57P)/;

const MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|query read timeout|connection refused|connection error|not queryable|database system is (starting|shutting) up|terminating connection/i;

/**
 * True when `error` says the database could not be reached or dropped the
 * connection, as opposed to a query the database refused. Walks `cause`,
 * since MikroORM wraps driver errors.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof DatabaseTimeoutError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code))) return true;
    if (current.name === "ConnectionException" || MESSAGES.test(current.message)) return true;
    if (current instanceof AggregateError && current.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Rejects with DatabaseTimeoutError after `ms`; the work itself goes on (its outcome is made idempotent). */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseTimeoutError(`database did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
