import { maxHeaderSize } from "node:http";
import { RETRY_SHORTLY_CODE } from "@pulsegate/contract/errors";
import { bytesText, REQUEST_LIMITS } from "@pulsegate/contract/limits";
import { NOT_FOUND_SENTENCES } from "@pulsegate/contract/not-found";
import { invalidCursor } from "@pulsegate/contract/page-cursor";

const BODY_MAX = bytesText(REQUEST_LIMITS.bodyMaxBytes);

type Entry = {
  /** The HTTP status this code is always answered with. */
  status: number;
  /** The sentence answered when the place that raises the error has nothing more precise to say. */
  sentence: string;
  /** Answered only by the dashboard's web pages, which are not part of the documented API. */
  dashboardOnly?: true;
};

/**
 * Every error code a caller can see, defined once: the gateway's own, and those the services
 * send through gRPC (their domain errors' codes). HttpError takes its status from here, the
 * OpenAPI error responses list only codes from here (openapi/error-responses.ts), and a code a
 * peer sends that is missing here is answered with its status's generic code
 * (grpc-status-to-http.ts). `service_unavailable` is the one "retry shortly" code: 503 with
 * Retry-After, whatever is away (a service, its database, the ping spool).
 */
export const ERROR_CATALOGUE = {
  invalid_request: { status: 400, sentence: "The request is invalid." },
  invalid_json: { status: 400, sentence: "The request body is not valid JSON." },
  invalid_cursor: { status: 400, sentence: invalidCursor().message },
  malformed_request: { status: 400, sentence: "The request is not valid HTTP/1.1." },
  bad_request: { status: 400, sentence: "The request could not be read." },
  missing_signature: { status: 401, sentence: "Missing webhook signature" },
  invalid_signature: { status: 401, sentence: "Signature does not match the request body." },
  missing_timestamp: {
    status: 401,
    sentence: "This endpoint requires X-Webhook-Timestamp (Unix seconds) and a signature over '<timestamp>.<body>'.",
  },
  invalid_timestamp: { status: 401, sentence: "X-Webhook-Timestamp must be a Unix time in whole seconds." },
  missing_webhook_id: {
    status: 401,
    sentence:
      "Missing webhook-id: a Standard Webhooks request carries webhook-id, webhook-timestamp and webhook-signature.",
  },
  invalid_webhook_id: {
    status: 401,
    sentence: "webhook-id must be 1 to 255 visible ASCII characters (no spaces), given once.",
  },
  timestamp_out_of_tolerance: {
    status: 401,
    sentence: "X-Webhook-Timestamp is too far from the server's clock: the request is refused as a possible replay.",
  },
  missing_bearer_token: {
    status: 401,
    sentence: "Missing bearer token: send Authorization: Bearer <the webhook's bearerToken>.",
  },
  invalid_bearer_token: { status: 401, sentence: "The bearer token is not this webhook's." },
  unauthorized: { status: 401, sentence: "A valid admin token or team API key is required." },
  forbidden: { status: 403, sentence: "Not allowed." },
  subscription_expired: { status: 403, sentence: "The team's subscription has expired." },
  cross_origin: { status: 403, sentence: "Forms must be sent from this dashboard.", dashboardOnly: true },
  csrf: { status: 403, sentence: "This form has expired: reload the page and try again.", dashboardOnly: true },
  not_found: { status: 404, sentence: "Not found." },
  team_not_found: { status: 404, sentence: NOT_FOUND_SENTENCES.team_not_found },
  webhook_not_found: { status: 404, sentence: NOT_FOUND_SENTENCES.webhook_not_found },
  alert_not_found: { status: 404, sentence: NOT_FOUND_SENTENCES.alert_not_found },
  monitor_not_found: { status: 404, sentence: NOT_FOUND_SENTENCES.monitor_not_found },
  channel_not_found: { status: 404, sentence: NOT_FOUND_SENTENCES.channel_not_found },
  delivery_not_found: { status: 404, sentence: NOT_FOUND_SENTENCES.delivery_not_found },
  api_key_not_found: { status: 404, sentence: NOT_FOUND_SENTENCES.api_key_not_found },
  badge_not_found: { status: 404, sentence: "No monitor has that badge." },
  request_timeout: { status: 408, sentence: "The request's headers or body did not arrive in time." },
  conflict: { status: 409, sentence: "The resource does not allow this now." },
  replayed_request: {
    status: 409,
    sentence:
      "This signed request was already accepted within its timestamp's tolerance: a timestamped request is applied once.",
  },
  alert_resolved: { status: 409, sentence: "The alert is resolved; it can no longer be acknowledged." },
  delivery_not_failed: { status: 409, sentence: "Only a failed delivery can be sent again." },
  channel_unavailable: {
    status: 409,
    sentence: "The delivery's channel is disabled or deleted; enable or recreate it first.",
  },
  too_many_channels: { status: 409, sentence: "The team has as many channels as it may have." },
  name_taken: {
    status: 409,
    sentence: "That name is in use: team names are unique, and so are the names of a team's resources of one kind.",
  },
  no_signing_secret: {
    status: 409,
    sentence:
      "Only a webhook channel created with signatureScheme standard-webhooks has a signing secret of its own; the others sign with the team's webhook secret.",
  },
  payload_too_large: { status: 413, sentence: `The request body is larger than ${BODY_MAX}.` },
  chunk_extensions_too_large: { status: 413, sentence: "The body's chunk extensions are too large." },
  unsupported_media_type: { status: 415, sentence: "Content-Type must be application/json (or a +json type)." },
  idempotency_key_reused: {
    status: 422,
    sentence:
      "This Idempotency-Key was sent with another request (body, endpoint or source) within 24 hours: nothing was applied. Use a new key for a new request.",
  },
  rate_limited: { status: 429, sentence: "Too many requests; retry after Retry-After seconds." },
  too_many_failures: {
    status: 429,
    sentence: "Too many failed sign-ins from this address; retry after Retry-After seconds.",
  },
  alert_quota_exhausted: { status: 429, sentence: "The team's monthly alert quota is exhausted." },
  heartbeat_quota_exhausted: { status: 429, sentence: "The team's monthly heartbeat quota is exhausted." },
  channel_test_in_progress: {
    status: 429,
    sentence:
      "A test notification is already being sent through this channel, or the team has 3 in flight; retry after Retry-After seconds.",
  },
  headers_too_large: {
    status: 431,
    sentence: `The request line and headers (URL and query included) are larger than ${maxHeaderSize / 1024} KiB.`,
  },
  internal: { status: 500, sentence: "Internal error." },
  [RETRY_SHORTLY_CODE]: { status: 503, sentence: "A service behind the gateway is unavailable; retry shortly." },
} as const satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Seconds a caller is told to wait (Retry-After) after a 503 service_unavailable, unless the service says. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, code);
}
