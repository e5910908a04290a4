/**
 * DB_POOL_MAX is the number of pooled PostgreSQL connections a whole process may hold. A service
 * with a plain pg pool for its hot path beside the ORM's (alerts' triggers, monitors' pings) splits
 * it: half to that pool, the rest (the larger half) to the ORM, which serves everything else.
 * Connections outside the pools (a LISTEN client, the migration lock) come on top; the per-process
 * total is in docs/operations.md, "PostgreSQL connections".
 */
export function splitPoolBudget(poolMax: number): { orm: number; hotPath: number } {
  if (!Number.isInteger(poolMax) || poolMax < 2) {
    throw new Error(`a pool budget of ${poolMax} cannot be split: DB_POOL_MAX must be at least 2 here`);
  }
  const hotPath = Math.floor(poolMax / 2);
  return { orm: poolMax - hotPath, hotPath };
}
