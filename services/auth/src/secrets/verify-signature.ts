// Compare a webhook signature with the expected HMAC, in constant time.
import { timingSafeEqual } from "node:crypto";
import { hmacFromStates, type VerifierKey } from "./hmac-states.ts";
import { parseSignatureHeader } from "./signature-header.ts";

/**
 * True iff `signature` equals HMAC-SHA256(secret, payload). Constant time;
 * a signature of the wrong length is simply false.
 */
export function signatureMatches(key: VerifierKey, payload: Uint8Array | string, signature: Uint8Array): boolean {
  const expected = hmacFromStates(key, payload);
  return signature.length === expected.length && timingSafeEqual(signature, expected);
}

/**
 * True iff `headerValue` is a valid signature header (see signature-header.ts)
 * matching the payload. Never throws on a malformed header.
 */
export function verifySignature(key: VerifierKey, payload: Uint8Array | string, headerValue: unknown): boolean {
  const provided = parseSignatureHeader(headerValue);
  return provided !== null && signatureMatches(key, payload, provided);
}
