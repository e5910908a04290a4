type ErrorLike = { code?: unknown; cause?: unknown };

/** `error` and the errors in its cause chain (MikroORM wraps the driver's). */
function* causeChain(error: unknown): Generator<ErrorLike> {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    yield current as ErrorLike;
    current = (current as ErrorLike).cause;
  }
}

/**
 * True when PostgreSQL refused a text it cannot store (U+0000: 22021 in text,
 * 22P05 in jsonb): the caller sent it, so it is INVALID_ARGUMENT, not INTERNAL.
 */
export function isUnstorableTextError(error: unknown): boolean {
  for (const { code } of causeChain(error)) if (code === "22021" || code === "22P05") return true;
  return false;
}
