import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.ts";

/** Time limits and retries, shared by the caller client and the admin client. */
export type TransportOptions = {
  /** Each attempt's limit (default 10 000 ms). */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt on 429, 503 and no answer (default 3). */
  retries?: number | undefined;
  /** The backoff's first step and its cap (defaults 500 ms and 60 000 ms). */
  retryDelay?: Partial<Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs">> | undefined;
};

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Defaults filled in, numbers checked. */
export function resolveTransport(options: TransportOptions): { timeoutMs: number; retry: RetryPolicy } {
  const retry: RetryPolicy = {
    retries: options.retries ?? DEFAULT_RETRY_POLICY.retries,
    baseDelayMs: options.retryDelay?.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: options.retryDelay?.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(retry.retries) || retry.retries < 0) throw new RangeError("retries must be an integer ≥ 0");
  if (!(timeoutMs > 0)) throw new RangeError("timeoutMs must be > 0");
  if (!(retry.baseDelayMs >= 0) || !(retry.maxDelayMs >= 0)) throw new RangeError("retry delays must be ≥ 0");
  return { timeoutMs, retry };
}
