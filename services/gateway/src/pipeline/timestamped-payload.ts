import type { FastifyRequest } from "fastify";
import { HttpError } from "../errors.ts";

/** How far a signed timestamp may be from the gateway's clock, either way (Standard Webhooks' 5 minutes). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

export const timestampErrors = {
  missing: () => new HttpError("missing_timestamp"),
  invalid: () => new HttpError("invalid_timestamp"),
  outOfTolerance: () =>
    new HttpError(
      "timestamp_out_of_tolerance",
      `X-Webhook-Timestamp is more than ${TIMESTAMP_TOLERANCE_SECONDS} s from the server's clock: the request is refused as a possible replay.`,
    ),
};

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
  if (header === undefined || header === "") throw timestampErrors.missing();
  if (typeof header !== "string" || !/^[0-9]{1,12}$/.test(header.trim())) throw timestampErrors.invalid();
  const seconds = Number(header.trim());
  if (Math.abs(now / 1000 - seconds) > TIMESTAMP_TOLERANCE_SECONDS) throw timestampErrors.outOfTolerance();
  return { bytes: Buffer.concat([Buffer.from(`${seconds}.`), body]), timestamp: seconds };
}
