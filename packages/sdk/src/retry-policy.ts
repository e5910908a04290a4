/** When and how long to wait before trying a request again. */
export type RetryPolicy = {
  /** Retries after the first attempt (0: never retry). */
  retries: number;
  /** The first backoff's upper bound; it doubles with each retry. */
  baseDelayMs: number;
  /** No wait is longer; a Retry-After beyond it ends the retries (a monthly quota, say). */
  maxDelayMs: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 60_000 };

/** Statuses that say "not now" rather than "no": answered again later, the same request may pass. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Milliseconds a Retry-After header asks for: delta-seconds or an HTTP date.
 * Null when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return null;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * The wait before retry number `retry` (1 for the first), or null to give up.
 * With a Retry-After the wait is never shorter than it asks, plus a random spread
 * (up to the base delay, within the cap) so callers told the same instant do not
 * come back together. Without one it is "full jitter": uniform in
 * [0, min(cap, base·2^(retry-1))).
 */
export function retryDelay(
  retry: number,
  retryAfterMs: number | null,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | null {
  if (retry > policy.retries) return null;
  if (retryAfterMs !== null) {
    if (retryAfterMs > policy.maxDelayMs) return null;
    const spread = Math.min(policy.baseDelayMs, policy.maxDelayMs - retryAfterMs);
    return Math.round(retryAfterMs + random() * spread);
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}
