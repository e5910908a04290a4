/** Network and server-state codes that mean "a dependency is away, retry later". */
const TRANSIENT_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
  // PostgreSQL: admin shutdown, crash shutdown, cannot connect now, too many connections, connection exceptions.
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);

const TRANSIENT_MESSAGES = [
  "timeout exceeded when trying to connect",
  "Connection terminated",
  "connect ECONNREFUSED",
  "Client has encountered a connection error",
];

/**
 * True when `error` (or anything in its cause chain) says a database or peer
 * could not be reached: the caller should hear UNAVAILABLE (503 + Retry-After),
 * not INTERNAL.
 */
export function isTransientError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return false;
    const { code, name, message, cause } = current as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (typeof code === "string" && TRANSIENT_CODES.has(code)) return true;
    if (name === "ConnectionException") return true;
    if (typeof message === "string" && TRANSIENT_MESSAGES.some((text) => message.includes(text))) return true;
    current = cause;
  }
  return false;
}
