// HMAC-SHA256 from precomputed inner/outer states (RFC 2104 §4).
//
// The HMAC key is the UTF-8 bytes of the 64-char hex secret text: exactly one
// 64-byte block, so no pre-hash and no zero padding. We store
//   inner = SHA-256 state after compressing (key XOR 0x36..)
//   outer = SHA-256 state after compressing (key XOR 0x5c..)
// serialized as inner(32) || outer(32) = 64 bytes. The states let anyone who
// holds them compute MACs, so they are secret-equivalent and are only ever
// stored sealed (see seal.ts). They do not yield the secret text back.
import { isSecretText } from "./generate-secret.ts";
import { ResumableSha256, SHA256_BLOCK_BYTES, SHA256_STATE_BYTES } from "./sha256-state.ts";

/** Serialized size of the states: inner(32) || outer(32). */
export const HMAC_STATES_BYTES = 2 * SHA256_STATE_BYTES;

const IPAD = 0x36;
const OPAD = 0x5c;
const REDACTED = "[VerifierKey redacted]";

/** Derive inner(32) || outer(32) from the secret text. Throws on a malformed secret. */
export function deriveHmacStates(secret: string): Uint8Array {
  if (!isSecretText(secret)) {
    throw new TypeError("secret must be 64 lowercase hex chars");
  }
  const key = new TextEncoder().encode(secret); // 64 bytes = one block
  const block = new Uint8Array(SHA256_BLOCK_BYTES);
  const out = new Uint8Array(HMAC_STATES_BYTES);
  for (const [pad, offset] of [
    [IPAD, 0],
    [OPAD, SHA256_STATE_BYTES],
  ] as const) {
    for (let i = 0; i < SHA256_BLOCK_BYTES; i++) block[i] = (key[i] ?? 0) ^ pad;
    const h = new ResumableSha256();
    h.update(block);
    out.set(h.exportState(), offset);
    h.destroy();
  }
  block.fill(0);
  key.fill(0);
  return out;
}

/**
 * In-memory, reusable HMAC key built from the opened states. Holds two SHA-256
 * hashers positioned after the ipad/opad block; each MAC clones them. Fields
 * are private (#) and inspection/JSON are redacted so it cannot leak via logs.
 */
export class VerifierKey {
  readonly #inner: ResumableSha256;
  readonly #outer: ResumableSha256;

  private constructor(inner: ResumableSha256, outer: ResumableSha256) {
    this.#inner = inner;
    this.#outer = outer;
  }

  /** Build from inner(32) || outer(32). Does not retain or wipe `states`. */
  static fromStates(states: Uint8Array): VerifierKey {
    if (states.length !== HMAC_STATES_BYTES) {
      throw new RangeError(`HMAC states must be ${HMAC_STATES_BYTES} bytes, got ${states.length}`);
    }
    return new VerifierKey(
      ResumableSha256.afterOneBlock(states.subarray(0, SHA256_STATE_BYTES)),
      ResumableSha256.afterOneBlock(states.subarray(SHA256_STATE_BYTES)),
    );
  }

  /** HMAC-SHA256(secret, payload), 32 bytes. */
  mac(payload: Uint8Array): Buffer {
    const inner = this.#inner.clone();
    inner.update(payload);
    const innerDigest = inner.digest();
    const outer = this.#outer.clone();
    outer.update(innerDigest);
    const tag = outer.digest();
    return Buffer.from(tag.buffer, tag.byteOffset, tag.byteLength);
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return REDACTED;
  }
}

/** HMAC-SHA256 of `payload` (raw body bytes; a string is UTF-8 encoded). */
export function hmacFromStates(key: VerifierKey, payload: Uint8Array | string): Buffer {
  return key.mac(typeof payload === "string" ? Buffer.from(payload, "utf8") : payload);
}
