import type { FieldProblem } from "@pulsegate/contract/errors";
import { invalidCursor } from "@pulsegate/contract/page-cursor";
import { ERROR_CATALOGUE, type ErrorCode, UNAVAILABLE_RETRY_AFTER_SECONDS } from "./error-catalogue.ts";

/**
 * An error answered to the caller as `{"error", "code", "requestId"}` (plus
 * `details` for field problems), with the status the catalogue gives its code
 * (error-catalogue.ts). `headers` are set on the response as well.
 */
export class HttpError extends Error {
  override name = "HttpError";
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: FieldProblem[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string = ERROR_CATALOGUE[code].sentence,
    options: { details?: FieldProblem[]; headers?: Record<string, string>; status?: number } = {},
  ) {
    super(message);
    // `status` is only for Fastify's own 4xx answered as bad_request (error-handler.ts): its status is kept.
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** The gateway's own errors that take arguments or headers; the rest are `new HttpError(code)`. */
export const errors = {
  missingSignature: () => new HttpError("missing_signature"),
  invalidSignature: () => new HttpError("invalid_signature"),
  missingBearerToken: () =>
    new HttpError("missing_bearer_token", undefined, { headers: { "www-authenticate": 'Bearer realm="webhook"' } }),
  invalidBearerToken: () =>
    new HttpError("invalid_bearer_token", undefined, { headers: { "www-authenticate": 'Bearer realm="webhook"' } }),
  unauthorized: () =>
    new HttpError("unauthorized", undefined, { headers: { "www-authenticate": 'Bearer realm="admin"' } }),
  readOnlyKey: () => new HttpError("forbidden", "This API key is read-only: it may only use GET."),
  readOnlySession: () => new HttpError("forbidden", "You may look but not change anything here (read-only)."),
  adminTokenOnly: (what: string) => new HttpError("forbidden", `Only the admin token can ${what}.`),
  subscriptionExpired: () => new HttpError("subscription_expired"),
  webhookNotFound: () => new HttpError("webhook_not_found"),
  monitorNotFound: () => new HttpError("monitor_not_found"),
  routeNotFound: () => new HttpError("not_found", "No such endpoint."),
  emptyPathParameter: (name: string) => new HttpError("not_found", `No such endpoint: the path's ${name} is empty.`),
  payloadTooLarge: () => new HttpError("payload_too_large"),
  unsupportedMediaType: () => new HttpError("unsupported_media_type"),
  invalidMediaType: () => new HttpError("unsupported_media_type", "The Content-Type header is not valid."),
  invalidJson: () => new HttpError("invalid_json"),
  /** The services' own refusal, for a cursor the gateway can already tell is none of ours. */
  invalidCursor: () => {
    const refusal = invalidCursor();
    return new HttpError("invalid_cursor", refusal.message, { details: refusal.details });
  },
  invalidRequest: (details: FieldProblem[]) =>
    new HttpError("invalid_request", "The request is invalid; see details.", { details }),
  rateLimited: (headers: Record<string, string>) =>
    new HttpError("rate_limited", "Too many requests for this webhook; retry after Retry-After seconds.", { headers }),
  tooManyFailures: (retryAfterSeconds: number) =>
    new HttpError("too_many_failures", undefined, { headers: { "retry-after": String(retryAfterSeconds) } }),
  alertQuotaExhausted: (retryAfterSeconds: number) =>
    new HttpError("alert_quota_exhausted", undefined, { headers: { "retry-after": String(retryAfterSeconds) } }),
  serviceUnavailable: (
    message: string = ERROR_CATALOGUE.service_unavailable.sentence,
    retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS,
  ) => new HttpError("service_unavailable", message, { headers: { "retry-after": String(retryAfterSeconds) } }),
  internal: () => new HttpError("internal"),
  // Answered by the HTTP server itself, before routing (see client-error-handler.ts).
  malformedRequest: () => new HttpError("malformed_request"),
  requestTimeout: () => new HttpError("request_timeout"),
  headersTooLarge: () => new HttpError("headers_too_large"),
  chunkExtensionsTooLarge: () => new HttpError("chunk_extensions_too_large"),
};

export function errorBody(error: HttpError, requestId: string) {
  return {
    error: error.message,
    code: error.code,
    requestId,
    ...(error.details ? { details: error.details } : {}),
  };
}
