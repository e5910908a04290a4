type ErrorLike = { code?: unknown; constraint?: unknown; cause?: unknown };

/**
 * True when PostgreSQL refused a row because the unique index `constraint` already holds its key
 * (SQLSTATE 23505), however the driver or MikroORM wrapped the error: the loser of a race for a
 * unique value, which the caller answers as a conflict instead of a failure.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const { code, constraint: name, cause } = current as ErrorLike;
    if (code === "23505" && name === constraint) return true;
    current = cause;
  }
  return false;
}

/**
 * A `catch` handler that answers a violation of the unique index `constraint` with `replacement()`
 * and rethrows anything else: `await em.flush().catch(onUniqueViolation("teams_name_key", nameTaken))`.
 */
export function onUniqueViolation(constraint: string, replacement: () => Error): (error: unknown) => never {
  return (error) => {
    throw isUniqueViolation(error, constraint) ? replacement() : error;
  };
}
