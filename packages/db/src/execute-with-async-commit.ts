import type { EntityManager } from "@mikro-orm/postgresql";

/**
 * Runs one statement in a transaction of its own whose commit does not wait
 * for the WAL flush (`synchronous_commit = off`), so a hot row (a per-team
 * usage counter) is locked for the statement alone, not for an fsync.
 *
 * Safe for counters that precede a durable write: the later synchronous
 * commit flushes the WAL up to itself, this commit included, so the counter
 * is never lost once what it counted is durable. A crash between the two can
 * only leave it one too high.
 */
export async function executeWithAsyncCommit<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T> {
  return em.fork().transactional(async (fork) => {
    await fork.execute("SET LOCAL synchronous_commit = off");
    return fork.execute<T & object>(sql, params) as Promise<T>;
  });
}
