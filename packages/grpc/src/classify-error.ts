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

type ErrorLike = { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };

/** `error` and the errors in its cause chain (MikroORM wraps the driver's). */
function* causeChain(error: unknown): Generator<ErrorLike> {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    yield current as ErrorLike;
    current = (current as ErrorLike).cause;
  }
}

/**
 * True when `error` says a database or peer could not be reached: the caller
 * should hear UNAVAILABLE (503 + Retry-After), not INTERNAL.
 */
export function isTransientError(error: unknown): boolean {
  for (const { code, name, message } of causeChain(error)) {
    if (typeof code === "string" && TRANSIENT_CODES.has(code)) return true;
    if (name === "ConnectionException") return true;
    if (typeof message === "string" && TRANSIENT_MESSAGES.some((text) => message.includes(text))) return true;
  }
  return false;
}

/**
 * True when PostgreSQL refused a text it cannot store (U+0000: 22021 in text,
 * 22P05 in jsonb): the caller sent it, so it is INVALID_ARGUMENT, not INTERNAL.
 */
export function isUnstorableTextError(error: unknown): boolean {
  for (const { code } of causeChain(error)) if (code === "22021" || code === "22P05") return true;
  return false;
}
