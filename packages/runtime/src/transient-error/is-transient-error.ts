/** Network codes of a peer or database that could not be reached or dropped the connection. */
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

// SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57P (operator intervention:
// admin or crash shutdown, cannot connect now).
const SQLSTATE_UNAVAILABLE = /^(08|53|57P)/;

// The last: a prepared statement a migration made stale (0A000, whose other causes are bugs), which a
// fresh connection prepares anew (@pulsegate/db discards the stale one).
const MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|query read timeout|connect ECONNREFUSED|connection refused|connection error|not queryable|database system is (starting|shutting) up|terminating connection|cached plan must not change result type/i;

type ErrorLike = { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };

/**
 * True when `error` says a database or peer could not be reached, dropped the
 * connection — "retry shortly" — as opposed to a
 * statement the database refused or a bug. Walks `cause` (MikroORM wraps the
 * driver's errors) and the errors of an AggregateError (a refused connection
 * to every address of a host).
 */
export function isTransientError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === "object"; depth++) {
    const { code, name, message, cause } = current as ErrorLike;
    if (typeof code === "string" && (NETWORK_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code))) return true;
    if (name === "ConnectionException") return true;
    if (typeof message === "string" && MESSAGES.test(message)) return true;
    if (current instanceof AggregateError && current.errors.some((inner) => isTransientError(inner))) return true;
    current = cause;
  }
  return false;
}
