import { createHash } from "node:crypto";
import { IDEMPOTENCY_LIMITS } from "@pulsegate/contract/limits";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../errors.ts";

const SHAPE = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_LIMITS.keyMaxLength}}$`);
const HEADER = "idempotency-key";

/** What an Idempotency-Key may be, and so a Standard Webhooks webhook-id, which serves as one. */
export function isIdempotencyKeyShape(value: unknown): value is string {
  return typeof value === "string" && SHAPE.test(value);
}

/**
 * The `Idempotency-Key` of a trigger, resolve or ping ("" for none): a client's name for one
 * request, sent again on each retry of it, so the request is applied once however often it is
 * sent within 24 hours (Stripe's convention). Read at step 6 with the body.
 *
 * A Standard Webhooks request's `webhookId` is its key: that scheme's sender retries a message
 * under the same webhook-id (signed again, with a fresh timestamp), and its receivers are to
 * de-duplicate on it. The retry is then answered from the first, with Idempotent-Replayed. An
 * Idempotency-Key beside it must be the same value.
 */
export function readIdempotencyKey(request: FastifyRequest, webhookId: string | null = null): string {
  const value = request.headers[HEADER];
  if (webhookId !== null) {
    if (value === undefined || value === webhookId) return webhookId;
    const message =
      "A Standard Webhooks request's webhook-id is its idempotency key: send no Idempotency-Key, or the same value.";
    throw new HttpError("invalid_request", message, { details: [{ field: "headers.idempotency-key", message }] });
  }
  if (value === undefined) return "";
  if (typeof value !== "string" || !SHAPE.test(value)) {
    const message = `Idempotency-Key must be 1 to ${IDEMPOTENCY_LIMITS.keyMaxLength} visible ASCII characters (a UUID, for example), sent once.`;
    throw new HttpError("invalid_request", message, { details: [{ field: "headers.idempotency-key", message }] });
  }
  return value;
}

/**
 * What the request asks for, as a digest: the endpoint, the webhook or monitor, and the body's
 * bytes (not the timestamp header: a retry signed again is the same request). A key sent again
 * with another digest is another request under a reused key (422).
 */
export function requestFingerprint(
  endpoint: "trigger" | "resolve" | "ping" | "start",
  sourceId: string,
  body: Buffer,
): string {
  return createHash("sha256").update(`${endpoint}\n${sourceId}\n`).update(body).digest("hex");
}

/** The proto fields of an item for a request with this key ("": none, and no digest is made). */
export function idempotencyFields(
  key: string,
  endpoint: "trigger" | "resolve" | "ping" | "start",
  sourceId: string,
  body: Buffer,
): { idempotencyKey: string; requestFingerprint: string } {
  return { idempotencyKey: key, requestFingerprint: key === "" ? "" : requestFingerprint(endpoint, sourceId, body) };
}

/** An answer given again from the key's first request says so, as Stripe's do. */
export function markReplayed(reply: FastifyReply, replayed: boolean | undefined): void {
  if (replayed) reply.header("idempotent-replayed", "true");
}

export const idempotencyKeyReused = () => new HttpError("idempotency_key_reused");
