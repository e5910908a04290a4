import { errorFromResponse, PulsegateError } from "./errors.ts";
import { parseRetryAfter, RETRYABLE_STATUSES, type RetryPolicy, retryDelay } from "./retry-policy.ts";
import { SDK_VERSION } from "./version.ts";

export type SendOptions = {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Serialised once by the caller: every attempt sends these same bytes. */
  body?: string | Uint8Array | undefined;
  /** Each attempt's own limit, headers and body included. */
  timeoutMs: number;
  retry: RetryPolicy;
  /**
   * Whether a request that got no answer is sent again. It may have been
   * processed already, so only for requests where a repeat is harmless.
   */
  retryNetworkErrors: boolean;
  /** Cancels the request and any wait between attempts. */
  signal?: AbortSignal | undefined;
  /** Told before each wait: the CLI prints it. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  random?: () => number;
};

export type RetryEvent = { retry: number; delayMs: number; status: number; code: string };

export type SentResponse = { status: number; headers: Headers; body: unknown };

const USER_AGENT = `pulsegate-sdk/${SDK_VERSION} node/${process.versions.node}`;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** JSON when the answer is JSON, the text otherwise, null when empty. */
function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function networkError(error: unknown, timedOut: boolean, timeoutMs: number, attempts: number): PulsegateError {
  const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
  return new PulsegateError({
    status: 0,
    code: timedOut ? "timeout" : "network_error",
    message: timedOut ? `No answer within ${timeoutMs} ms.` : `The request failed: ${reason || String(error)}.`,
    attempts,
    cause: error,
  });
}

/**
 * One HTTP exchange with Pulsegate, attempted again on 429 and 503 (and, when
 * allowed, when no answer came), honouring Retry-After. Resolves with a 2xx
 * answer; anything else rejects with a PulsegateError. A caller's abort rejects
 * with the abort reason as it is.
 */
export async function sendRequest(options: SendOptions): Promise<SentResponse> {
  const headers = { "user-agent": USER_AGENT, accept: "application/json", ...options.headers };
  for (let attempt = 1; ; attempt++) {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let failure: PulsegateError;
    try {
      const response = await fetch(options.url, {
        method: options.method,
        headers,
        ...(options.body === undefined ? {} : { body: options.body }),
        signal,
        redirect: "manual",
      });
      const body = parseBody(await response.text());
      if (response.status >= 200 && response.status < 300)
        return { status: response.status, headers: response.headers, body };
      failure = errorFromResponse(response.status, body, {
        requestId: response.headers.get("x-request-id"),
        retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
        attempts: attempt,
      });
      if (!RETRYABLE_STATUSES.has(response.status)) throw failure;
    } catch (error) {
      if (error instanceof PulsegateError) throw error;
      if (options.signal?.aborted) throw options.signal.reason;
      failure = networkError(error, timeout.aborted, options.timeoutMs, attempt);
      if (!options.retryNetworkErrors) throw failure;
    }
    const delayMs = retryDelay(attempt, failure.retryAfterMs, options.retry, options.random);
    if (delayMs === null) throw failure;
    options.onRetry?.({ retry: attempt, delayMs, status: failure.status, code: failure.code });
    await sleep(delayMs, options.signal);
  }
}
