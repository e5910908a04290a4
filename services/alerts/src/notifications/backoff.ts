export type BackoffOptions = { baseMs: number; maxMs: number };

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
  const exponential = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  const delay = Math.round(exponential / 2 + random() * (exponential / 2));
  return retryAfterMs === null ? delay : Math.max(delay, Math.min(retryAfterMs, options.maxMs));
}
