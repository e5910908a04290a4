/** The first step and the cap, in the caller's unit (milliseconds, seconds). */
export type BackoffOptions = { base: number; max: number };

/**
 * The exponential step after `attempt` failed attempts (1 = first), without
 * jitter: base·2^(attempt-1), capped.
 */
export function exponentialDelay(attempt: number, options: BackoffOptions): number {
  return Math.min(options.max, options.base * 2 ** Math.max(0, attempt - 1));
}

/**
 * Delay before the next attempt after `attempt` failed ones (1 = first):
 * exponential, capped, with "equal jitter" — half fixed, half random — so
 * that retries of many deliveries spread out yet never come back at once.
 * A receiver's Retry-After is honoured up to the cap.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): number {
  const exponential = exponentialDelay(attempt, options);
  const delay = Math.round(exponential / 2 + random() * (exponential / 2));
  return retryAfterMs === null ? delay : Math.max(delay, Math.min(retryAfterMs, options.max));
}
