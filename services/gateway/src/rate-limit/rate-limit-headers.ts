/** What the rate limiter decided for one request. */
export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the current window ends. */
  resetMs: number;
};

/** Whole seconds, rounded up and never 0, so a client that waits them is admitted. */
export function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * IETF RateLimit-* header fields (draft-ietf-httpapi-ratelimit-headers) for a
 * request that reached the rate limit step, plus Retry-After when refused.
 */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const reset = String(secondsUntil(decision.resetMs));
  const headers: Record<string, string> = {
    "ratelimit-limit": String(decision.limit),
    "ratelimit-remaining": String(Math.max(0, decision.remaining)),
    "ratelimit-reset": reset,
  };
  if (!decision.allowed) headers["retry-after"] = reset;
  return headers;
}
