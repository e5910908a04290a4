// Compare webhook signatures with the expected HMAC, in constant time.
import { timingSafeEqual } from "node:crypto";
import { hmacFromStates, type VerifierKey } from "./hmac-states.ts";

/**
 * True iff `signature` equals HMAC-SHA256(secret, payload). Constant time;
 * a signature of the wrong length is simply false.
 */
export function signatureMatches(key: VerifierKey, payload: Uint8Array | string, signature: Uint8Array): boolean {
  const expected = hmacFromStates(key, payload);
  return signature.length === expected.length && timingSafeEqual(signature, expected);
}

/**
 * True iff any of `signatures` equals HMAC-SHA256(secret, payload): the MAC is made once, each is
 * compared with it in constant time (a Standard Webhooks header carries one per key of the sender).
 */
export function anySignatureMatches(
  key: VerifierKey,
  payload: Uint8Array | string,
  signatures: readonly Uint8Array[],
): boolean {
  if (signatures.length === 0) return false;
  const expected = hmacFromStates(key, payload);
  let matched = false;
  for (const signature of signatures) {
    // Every entry is compared, so the time does not tell which one matched.
    if (signature.length === expected.length && timingSafeEqual(signature, expected)) matched = true;
  }
  return matched;
}
