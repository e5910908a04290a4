import { createHmac, timingSafeEqual } from "node:crypto";

/** The bytes of a request body: a string is taken as UTF-8. */
export type BodyBytes = string | Uint8Array;

/** The header that carries a signature, on requests to Pulsegate and on its notifications. */
export const SIGNATURE_HEADER = "x-webhook-signature";

// As the service parses it: 64 hex characters in any case, optionally after "sha256=".
const HEADER = /^(?:sha256=)?([0-9a-f]{64})$/i;
const MAX_HEADER_LENGTH = "sha256=".length + 64;

function digest(secret: string, body: BodyBytes): Buffer {
  return createHmac("sha256", secret).update(body).digest();
}

/**
 * `hex(HMAC-SHA256(key = secret text, message = body bytes))`, lowercase: the
 * value of X-Webhook-Signature. Sign the exact bytes you send; an empty body is
 * signed as the empty string.
 */
export function sign(secret: string, body: BodyBytes): string {
  return digest(secret, body).toString("hex");
}

/**
 * True when `signatureHeader` is the signature of `body` under `secret`, compared
 * in constant time. Accepts what the service accepts (uppercase hex, a `sha256=`
 * prefix, surrounding whitespace); anything else, including a missing header or a
 * non-string, is false — it never throws on what a sender controls.
 */
export function verify(secret: string, body: BodyBytes, signatureHeader: unknown): boolean {
  if (typeof signatureHeader !== "string") return false;
  const value = signatureHeader.trim();
  if (value.length > MAX_HEADER_LENGTH) return false;
  const hex = HEADER.exec(value)?.[1];
  if (hex === undefined) return false;
  if (typeof secret !== "string" || (typeof body !== "string" && !(body instanceof Uint8Array))) return false;
  return timingSafeEqual(Buffer.from(hex, "hex"), digest(secret, body));
}
