import { HttpError } from "../../errors.ts";

/** Errors only the ping endpoint answers (the shared ones are in errors.ts). */
export const pingErrors = {
  rateLimited: (headers: Record<string, string>) =>
    new HttpError(
      "rate_limited",
      "More than 10 pings in a minute for this ping URL; retry after Retry-After seconds.",
      { headers },
    ),
  /** DESIGN §2 step 6: say why, since `curl -d` sends a form type by default. */
  notJson: () =>
    new HttpError(
      "unsupported_media_type",
      "A ping body must be JSON sent with Content-Type: application/json (curl -d sends application/x-www-form-urlencoded; add -H 'Content-Type: application/json'), or send no body at all.",
    ),
  notAStart: () =>
    new HttpError("invalid_request", "A ping to /start is a start signal; see details.", {
      details: [{ field: "status", message: "status, if given on the /start path, must be start." }],
    }),
  heartbeatQuotaExhausted: (retryAfterSeconds: number) =>
    new HttpError("heartbeat_quota_exhausted", undefined, {
      headers: { "retry-after": String(retryAfterSeconds) },
    }),
};
