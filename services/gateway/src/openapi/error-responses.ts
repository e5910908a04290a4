import { bytesText, REQUEST_LIMITS } from "@pulsegate/contract/limits";
import { ERROR_CATALOGUE, type ErrorCode } from "../error-catalogue.ts";

/**
 * OpenAPI descriptions of the error answers: one body everywhere, `code` named per status. The
 * codes are the catalogue's (error-catalogue.ts); a code listed under a status it is not answered
 * with is a mistake caught at start-up.
 */

const errorBody = (codes: readonly ErrorCode[]) => ({
  type: "object",
  required: ["error", "code", "requestId"],
  properties: {
    error: { type: "string", description: "A sentence for people." },
    code: { type: "string", enum: [...codes], description: "For programs: stable, snake_case." },
    requestId: { type: "string", description: "Also in the X-Request-Id header; quote it when asking for help." },
    details: {
      type: "array",
      description: "Field problems (400 invalid_request).",
      items: {
        type: "object",
        required: ["field", "message"],
        properties: { field: { type: "string", examples: ["metadata.env"] }, message: { type: "string" } },
      },
    },
  },
});

export const retryAfterHeader = {
  "Retry-After": { type: "integer", minimum: 1, description: "Seconds to wait before trying again." },
} as const;

export const rateLimitHeaders = {
  "RateLimit-Limit": { type: "integer", description: "Requests allowed in the window." },
  "RateLimit-Remaining": { type: "integer", description: "Requests left in the window." },
  "RateLimit-Reset": { type: "integer", description: "Seconds until the window ends." },
} as const;

type Headers = Record<string, { type: string; description: string; minimum?: number }>;

export function errorResponse(description: string, codes: readonly ErrorCode[], headers?: Headers) {
  const status = ERROR_CATALOGUE[codes[0] as ErrorCode].status;
  const stray = codes.filter((code) => ERROR_CATALOGUE[code].status !== status);
  if (stray.length > 0) throw new Error(`error codes answered with another status than ${status}: ${stray.join(", ")}`);
  return { description, ...errorBody(codes), ...(headers ? { headers } : {}) };
}

/** Answered by the HTTP server itself, before any route (client-error-handler.ts). */
const serverErrors = {
  408: errorResponse("The headers (10 s) or the whole request (30 s) did not arrive in time.", ["request_timeout"]),
  431: errorResponse("The request line and headers are over 16 KiB.", ["headers_too_large"]),
  500: errorResponse("An unexpected failure (logged).", ["internal"]),
  503: errorResponse("A service behind the gateway is unavailable; retry after Retry-After.", ["service_unavailable"], {
    ...retryAfterHeader,
  }),
} as const;

/** Every error an admin route can answer; a route adds 409 where a state can refuse it. */
export const adminErrorResponses = {
  400: errorResponse("The path, query or body is invalid (`details` names the fields), or not JSON.", [
    "invalid_request",
    "invalid_json",
    "invalid_cursor",
    "malformed_request",
    "bad_request",
  ]),
  401: errorResponse("No valid admin token or team API key (`WWW-Authenticate: Bearer`).", ["unauthorized"]),
  403: errorResponse(
    "A read-only API key asked for a change, or an API key asked for what only the admin token may do.",
    ["forbidden"],
  ),
  404: errorResponse("No such resource, or it belongs to another team than the API key's.", [
    "not_found",
    "team_not_found",
    "webhook_not_found",
    "alert_not_found",
    "monitor_not_found",
    "channel_not_found",
    "delivery_not_found",
    "api_key_not_found",
  ]),
  413: errorResponse(`The body is over ${bytesText(REQUEST_LIMITS.bodyMaxBytes)}.`, [
    "payload_too_large",
    "chunk_extensions_too_large",
  ]),
  415: errorResponse("The body is not JSON.", ["unsupported_media_type"]),
  429: errorResponse(
    "Too many failed credentials (401s, dashboard sign-ins included) from this client address: refused before the token is checked until Retry-After has passed.",
    ["too_many_failures"],
    { ...retryAfterHeader },
  ),
  ...serverErrors,
} as const;

export const conflictResponse = errorResponse("The resource's state does not allow this now.", [
  "conflict",
  "alert_resolved",
  "delivery_not_failed",
  "channel_unavailable",
  "too_many_channels",
]);

/** A create or rename whose name is in use (unique among teams, or among a team's resources of a kind). */
export const nameTakenResponse = errorResponse(
  "The name is in use: by another team (team names are unique), or by another resource of this kind in the team.",
  ["name_taken"],
);

/** Errors of the signed public endpoints, in the order DESIGN §2 checks them. */
export function publicErrorResponses(kind: "trigger" | "ping") {
  return {
    400: errorResponse(
      kind === "ping"
        ? "The body is not a JSON object, a field is invalid (`details`), or the URL has a query parameter other than dryRun."
        : "The body is not a JSON object, a field is invalid (`details`), or the URL has a query parameter other than dryRun.",
      ["invalid_request", "invalid_json", "malformed_request", "bad_request"],
    ),
    401: errorResponse(
      `X-Webhook-Signature is missing, or does not match the body under the team's secret; or, where the webhook or monitor requires it, X-Webhook-Timestamp is missing, not a Unix time, or more than ${REQUEST_LIMITS.timestampToleranceSeconds} s from the server's clock. Under Standard Webhooks: webhook-signature, webhook-id or webhook-timestamp is missing or malformed, the timestamp is more than ${REQUEST_LIMITS.timestampToleranceSeconds} s away, or no v1 signature matches.`,
      [
        "missing_signature",
        "invalid_signature",
        "missing_timestamp",
        "invalid_timestamp",
        "timestamp_out_of_tolerance",
        "missing_webhook_id",
        "invalid_webhook_id",
      ],
    ),
    403: errorResponse("The team's subscription has expired.", ["subscription_expired"]),
    409: errorResponse(
      "Where the webhook or monitor requires timestamps: these signed bytes were already accepted within their timestamp's tolerance (a replay). Nothing was applied.",
      ["replayed_request"],
    ),
    404: errorResponse(
      kind === "ping" ? "No active monitor has that ping URL (unknown or paused)." : "No enabled webhook has that URL.",
      [kind === "ping" ? "monitor_not_found" : "webhook_not_found"],
    ),
    413: errorResponse(`The body is over ${bytesText(REQUEST_LIMITS.bodyMaxBytes)}.`, [
      "payload_too_large",
      "chunk_extensions_too_large",
    ]),
    422: errorResponse(
      "The Idempotency-Key was sent with another request (body, endpoint or source) within 24 hours. Nothing was applied.",
      ["idempotency_key_reused"],
    ),
    415: errorResponse("A non-empty body is not sent as JSON (`application/json` or `+json`).", [
      "unsupported_media_type",
    ]),
    429: errorResponse(
      kind === "ping"
        ? "More than 10 accepted pings in a minute for this ping URL (`rate_limited`, with RateLimit-*), or the team's monthly heartbeat quota is used up (`heartbeat_quota_exhausted`, until the next UTC month)."
        : "The webhook's rate limit per minute (`rate_limited`, with RateLimit-*), or the team's monthly alert quota is used up (`alert_quota_exhausted`, until the next UTC month).",
      kind === "ping" ? ["rate_limited", "heartbeat_quota_exhausted"] : ["rate_limited", "alert_quota_exhausted"],
      { ...retryAfterHeader, ...rateLimitHeaders },
    ),
    ...serverErrors,
  } as const;
}

/** Errors of the Alertmanager endpoint, in the order its checks run (a bearer token for the signature). */
export const alertmanagerErrorResponses = {
  400: errorResponse(
    "The body is not Alertmanager's webhook payload (version 4): `details` names each field, the number of alerts over the bound included.",
    ["invalid_request", "invalid_json", "malformed_request", "bad_request"],
  ),
  401: errorResponse(
    "No `Authorization: Bearer` token (`missing_bearer_token`), or not the webhook's (`invalid_bearer_token`).",
    ["missing_bearer_token", "invalid_bearer_token"],
  ),
  403: errorResponse("The team's subscription has expired.", ["subscription_expired"]),
  404: errorResponse("No enabled Alertmanager webhook has that URL (a signed webhook's URL is not known here).", [
    "webhook_not_found",
  ]),
  413: errorResponse(`The body is over ${bytesText(REQUEST_LIMITS.bodyMaxBytes)}.`, [
    "payload_too_large",
    "chunk_extensions_too_large",
  ]),
  415: errorResponse("The body is not sent as JSON (`application/json` or `+json`).", ["unsupported_media_type"]),
  429: errorResponse(
    "The webhook's rate limit per minute (`rate_limited`, with RateLimit-*): each payload counts once. A quota used up is an alert's outcome, not an error.",
    ["rate_limited"],
    { ...retryAfterHeader, ...rateLimitHeaders },
  ),
  ...serverErrors,
} as const;
