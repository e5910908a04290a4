import type { FastifyRequest } from "fastify";
import { HttpError } from "../errors.ts";
import { isIdempotencyKeyShape } from "./idempotency-key.ts";
import { headerText } from "./require-signature.ts";
import { readSignedTimestamp } from "./timestamped-payload.ts";

const HEADERS = "webhook-id, webhook-timestamp and webhook-signature";

export const standardWebhooksErrors = {
  missingSignature: () =>
    new HttpError(
      "missing_signature",
      `Missing webhook signature: this webhook or monitor takes Standard Webhooks requests, signed in ${HEADERS} (X-Webhook-Signature is not read).`,
    ),
  missingId: () => new HttpError("missing_webhook_id"),
  invalidId: () => new HttpError("invalid_webhook_id"),
  missingTimestamp: () =>
    new HttpError(
      "missing_timestamp",
      `Missing webhook-timestamp: a Standard Webhooks request carries ${HEADERS}, the timestamp in Unix seconds.`,
    ),
  invalidSignature: () =>
    new HttpError(
      "invalid_signature",
      "No v1 entry of webhook-signature matches '<webhook-id>.<webhook-timestamp>.<body>' under the team's key (whsec_ and base64 of the team's webhook secret).",
    ),
};

/** What a Standard Webhooks request signs, its signature list and its message id. */
export type StandardWebhooksRequest = { bytes: Buffer; signature: string; webhookId: string; timestamp: number };

/**
 * A request to a webhook or monitor under Standard Webhooks (standardwebhooks.com): webhook-id,
 * webhook-timestamp (Unix seconds, within 300 s either way, checked before the signature is) and
 * webhook-signature, which auth checks over "<webhook-id>.<webhook-timestamp>.<body>" with the
 * team's secret as the key. A missing or malformed header is a 401 that names it.
 */
export function readStandardWebhooksRequest(
  request: FastifyRequest,
  body: Buffer,
  now: number = Date.now(),
): StandardWebhooksRequest {
  const signature = headerText(request, "webhook-signature");
  if (signature === "") throw standardWebhooksErrors.missingSignature();
  const id = request.headers["webhook-id"];
  if (id === undefined || id === "") throw standardWebhooksErrors.missingId();
  if (!isIdempotencyKeyShape(id)) throw standardWebhooksErrors.invalidId();
  const timestamp = readSignedTimestamp(
    request.headers["webhook-timestamp"],
    "webhook-timestamp",
    standardWebhooksErrors.missingTimestamp,
    now,
  );
  return { bytes: Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]), signature, webhookId: id, timestamp };
}
