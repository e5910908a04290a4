import { maxHeaderSize } from "node:http";
import { NOT_FOUND_SENTENCES } from "@pulsegate/not-found";

/** A field-level problem reported with a 400 `invalid_request`. */
export type ErrorDetail = { field: string; message: string };

/** Seconds a caller should wait after a 503 caused by a peer being down. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * An error answered to the caller as `{"error", "code", "requestId"}` (plus
 * `details` for field problems). `headers` are set on the response as well.
 */
export class HttpError extends Error {
  override name = "HttpError";
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** Every error the gateway itself answers, defined once: code, sentence, status. */
export const errors = {
  missingSignature: () => new HttpError(401, "missing_signature", "Missing webhook signature"),
  invalidSignature: () => new HttpError(401, "invalid_signature", "Signature does not match the request body."),
  unauthorized: () =>
    new HttpError(401, "unauthorized", "A valid admin token or team API key is required.", {
      headers: { "www-authenticate": 'Bearer realm="admin"' },
    }),
  readOnlyKey: () => new HttpError(403, "forbidden", "This API key is read-only: it may only use GET."),
  adminTokenOnly: (what: string) => new HttpError(403, "forbidden", `Only the admin token can ${what}.`),
  subscriptionExpired: () => new HttpError(403, "subscription_expired", "The team's subscription has expired."),
  webhookNotFound: () => new HttpError(404, "webhook_not_found", NOT_FOUND_SENTENCES.webhook_not_found),
  monitorNotFound: () => new HttpError(404, "monitor_not_found", NOT_FOUND_SENTENCES.monitor_not_found),
  routeNotFound: () => new HttpError(404, "not_found", "No such endpoint."),
  payloadTooLarge: () => new HttpError(413, "payload_too_large", "The request body is larger than 1 MiB."),
  unsupportedMediaType: () =>
    new HttpError(415, "unsupported_media_type", "Content-Type must be application/json (or a +json type)."),
  invalidMediaType: () => new HttpError(415, "unsupported_media_type", "The Content-Type header is not valid."),
  invalidJson: () => new HttpError(400, "invalid_json", "The request body is not valid JSON."),
  invalidRequest: (details: ErrorDetail[]) =>
    new HttpError(400, "invalid_request", "The request is invalid; see details.", { details }),
  rateLimited: (headers: Record<string, string>) =>
    new HttpError(429, "rate_limited", "Too many requests for this webhook; retry after Retry-After seconds.", {
      headers,
    }),
  alertQuotaExhausted: (retryAfterSeconds: number) =>
    new HttpError(429, "alert_quota_exhausted", "The team's monthly alert quota is exhausted.", {
      headers: { "retry-after": String(retryAfterSeconds) },
    }),
  serviceUnavailable: () =>
    new HttpError(503, "service_unavailable", "A service behind the gateway is unavailable; retry shortly.", {
      headers: { "retry-after": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    }),
  internal: () => new HttpError(500, "internal", "Internal error."),
  // Answered by the HTTP server itself, before routing (see client-error-handler.ts).
  malformedRequest: () => new HttpError(400, "malformed_request", "The request is not valid HTTP/1.1."),
  requestTimeout: () => new HttpError(408, "request_timeout", "The request's headers or body did not arrive in time."),
  headersTooLarge: () =>
    new HttpError(
      431,
      "headers_too_large",
      `The request line and headers (URL and query included) are larger than ${maxHeaderSize / 1024} KiB.`,
    ),
  chunkExtensionsTooLarge: () =>
    new HttpError(413, "chunk_extensions_too_large", "The body's chunk extensions are too large."),
};

export function errorBody(error: HttpError, requestId: string) {
  return {
    error: error.message,
    code: error.code,
    requestId,
    ...(error.details ? { details: error.details } : {}),
  };
}
