/** A field-level problem of a 400 `invalid_request`. */
export type ErrorDetail = { field: string; message: string };

/** Codes the SDK uses when no HTTP answer came back (the service's own codes are snake_case too). */
export type LocalErrorCode = "network_error" | "timeout";

/**
 * A request Pulsegate refused or could not answer. `status` is the HTTP status,
 * or 0 when no answer arrived (then `code` is `network_error` or `timeout`).
 * `retryAfterMs` is the server's Retry-After, when it sent one.
 */
export class PulsegateError extends Error {
  override name = "PulsegateError";
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  readonly details: ErrorDetail[];
  readonly retryAfterMs: number | null;
  /** How many attempts were made before giving up. */
  readonly attempts: number;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    requestId?: string | null;
    details?: ErrorDetail[];
    retryAfterMs?: number | null;
    attempts?: number;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.details = init.details ?? [];
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.attempts = init.attempts ?? 1;
  }

  /** No answer, or a 5xx: trying later may work. */
  get unavailable(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

function isDetail(value: unknown): value is ErrorDetail {
  const detail = value as ErrorDetail | null;
  return typeof detail?.field === "string" && typeof detail.message === "string";
}

/** The error for a non-2xx answer, from the `{error, code, requestId, details?}` body when there is one. */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: { requestId: string | null; retryAfterMs: number | null; attempts: number },
): PulsegateError {
  const fields = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  return new PulsegateError({
    status,
    code: typeof fields.code === "string" ? fields.code : `http_${status}`,
    message: typeof fields.error === "string" ? fields.error : `HTTP ${status}`,
    requestId: typeof fields.requestId === "string" ? fields.requestId : headers.requestId,
    details: Array.isArray(fields.details) ? fields.details.filter(isDetail) : [],
    retryAfterMs: headers.retryAfterMs,
    attempts: headers.attempts,
  });
}
