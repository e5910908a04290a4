import { REQUEST_LIMITS } from "@pulsegate/contract/limits";
import type { FastifyRequest } from "fastify";
import { HttpError } from "../errors.ts";

/** The header a scheme carries its timestamp in, named in the errors about it. */
export type TimestampHeader = "X-Webhook-Timestamp" | "webhook-timestamp";

export const timestampErrors = {
  missing: () => new HttpError("missing_timestamp"),
  invalid: (header: TimestampHeader = "X-Webhook-Timestamp") =>
    new HttpError("invalid_timestamp", `${header} must be a Unix time in whole seconds.`),
  outOfTolerance: (header: TimestampHeader = "X-Webhook-Timestamp") =>
    new HttpError(
      "timestamp_out_of_tolerance",
      `${header} is more than ${REQUEST_LIMITS.timestampToleranceSeconds} s from the server's clock: the request is refused as a possible replay.`,
    ),
};

/**
 * A signed timestamp header's seconds, within 300 s of `now` either way; `missing` is the error for
 * an absent or empty header (each scheme says what it expects).
 */
export function readSignedTimestamp(
  value: string | string[] | undefined,
  header: TimestampHeader,
  missing: () => HttpError,
  now: number,
): number {
  if (value === undefined || value === "") throw missing();
  if (typeof value !== "string" || !/^[0-9]{1,12}$/.test(value.trim())) throw timestampErrors.invalid(header);
  const seconds = Number(value.trim());
  if (Math.abs(now / 1000 - seconds) > REQUEST_LIMITS.timestampToleranceSeconds)
    throw timestampErrors.outOfTolerance(header);
  return seconds;
}

/** What the signature must cover, and the signed timestamp (null: the source does not require one). */
export type SignedPayload = { bytes: Buffer; timestamp: number | null };

/**
 * The bytes the signature must cover (step 3). Interface scheme: the raw body.
 * A webhook or monitor that opted into replay protection instead signs
 * "<X-Webhook-Timestamp>.<raw body>", like Standard Webhooks, and a timestamp
 * more than 300 s from now is refused before the signature is even checked —
 * so a captured request stops working five minutes later (and within those
 * five minutes it is taken once: replay-guard.ts). Without the opt-in a
 * timestamp header is ignored.
 */
export function signedPayload(
  request: FastifyRequest,
  body: Buffer,
  requireTimestamp: boolean,
  now: number = Date.now(),
): SignedPayload {
  if (!requireTimestamp) return { bytes: body, timestamp: null };
  const header = request.headers["x-webhook-timestamp"];
  const seconds = readSignedTimestamp(header, "X-Webhook-Timestamp", timestampErrors.missing, now);
  return { bytes: Buffer.concat([Buffer.from(`${seconds}.`), body]), timestamp: seconds };
}
