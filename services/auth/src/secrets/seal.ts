// Seal / open the 64 HMAC state bytes with AES-256-GCM under a KEK.
//
// Sealed blob, format version 1 (all sizes in bytes):
//
//   offset   size  field
//   0        1     format version = 0x01
//   1        1     n = length of KEK id (1..255)
//   2        n     KEK id, ASCII (see kek.ts)
//   2+n      12    IV, random per seal
//   14+n     64    ciphertext of inner(32) || outer(32) SHA-256 states
//   78+n     16    GCM authentication tag
//
// GCM additional authenticated data (not stored):
//   "pulsegate/sealed-hmac-states" 0x00 || blob[0 .. 2+n) (version, id length, id) || utf8(aad)
// where `aad` is the caller's owner binding (e.g. team id + secret fingerprint),
// so a blob only opens for the owner it was sealed for, and the header
// (version, KEK id) cannot be altered without failing authentication.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { KEK_ENV, KEK_PREVIOUS_ENV, type Keyring } from "@pulsegate/sealing";
import { HMAC_STATES_BYTES } from "./hmac-states.ts";

export const SEALED_FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const AAD_LABEL = Buffer.from("pulsegate/sealed-hmac-states\0", "utf8");

export type SealedStatesErrorCode = "malformed" | "unsupported_version" | "unknown_kek" | "auth_failed";

export class SealedStatesError extends Error {
  readonly code: SealedStatesErrorCode;
  constructor(code: SealedStatesErrorCode, message: string) {
    super(message);
    this.name = "SealedStatesError";
    this.code = code;
  }
}

function gcmAad(header: Uint8Array, aad: string): Buffer {
  if (typeof aad !== "string" || aad === "") {
    throw new TypeError("sealed HMAC states: aad (the owner binding) must be a non-empty string");
  }
  return Buffer.concat([AAD_LABEL, header, Buffer.from(aad, "utf8")]);
}

/** Seal inner||outer states (64 bytes) under the keyring's current KEK, bound to `aad`. */
export function sealStates(states: Uint8Array, keyring: Keyring, aad: string): Buffer {
  if (states.length !== HMAC_STATES_BYTES) {
    throw new RangeError(`HMAC states must be ${HMAC_STATES_BYTES} bytes, got ${states.length}`);
  }
  const { id, key } = keyring.current;
  const idBytes = Buffer.from(id, "ascii");
  if (idBytes.length < 1 || idBytes.length > 255) throw new RangeError("KEK id must be 1..255 ASCII bytes");
  const header = Buffer.concat([Buffer.from([SEALED_FORMAT_VERSION, idBytes.length]), idBytes]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(gcmAad(header, aad));
  const ciphertext = Buffer.concat([cipher.update(states), cipher.final()]);
  return Buffer.concat([header, iv, ciphertext, cipher.getAuthTag()]);
}

type ParsedBlob = { header: Buffer; kekId: string; iv: Buffer; ciphertext: Buffer; tag: Buffer };

function parse(sealed: Uint8Array): ParsedBlob {
  if (!(sealed instanceof Uint8Array)) {
    throw new SealedStatesError("malformed", "sealed HMAC states: expected bytes");
  }
  const blob = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const version = blob[0];
  if (version === undefined) throw new SealedStatesError("malformed", "sealed HMAC states: empty blob");
  if (version !== SEALED_FORMAT_VERSION) {
    throw new SealedStatesError("unsupported_version", `sealed HMAC states: unsupported format version ${version}`);
  }
  const idLen = blob[1] ?? 0;
  const expected = 2 + idLen + IV_BYTES + HMAC_STATES_BYTES + TAG_BYTES;
  if (idLen === 0 || blob.length !== expected) {
    throw new SealedStatesError(
      "malformed",
      `sealed HMAC states: malformed blob (length ${blob.length}, expected ${idLen === 0 ? "a KEK id" : expected})`,
    );
  }
  const ivAt = 2 + idLen;
  const ctAt = ivAt + IV_BYTES;
  const tagAt = ctAt + HMAC_STATES_BYTES;
  return {
    header: blob.subarray(0, ivAt),
    kekId: blob.toString("latin1", 2, ivAt),
    iv: blob.subarray(ivAt, ctAt),
    ciphertext: blob.subarray(ctAt, tagAt),
    tag: blob.subarray(tagAt),
  };
}

/** Id of the KEK a blob was sealed with (e.g. to find blobs to reseal after rotating). */
export function sealedKekId(sealed: Uint8Array): string {
  return parse(sealed).kekId;
}

/**
 * Open a sealed blob back into raw inner||outer states (64 bytes). The caller
 * owns the result and must wipe it (fill(0)). Throws SealedStatesError.
 * Services should use openStates() (verifier-key.ts), which never exposes them.
 */
export function unsealStates(sealed: Uint8Array, keyring: Keyring, aad: string): Buffer {
  const { header, kekId, iv, ciphertext, tag } = parse(sealed);
  const key = keyring.byId.get(kekId);
  if (key === undefined) {
    throw new SealedStatesError(
      "unknown_kek",
      `sealed HMAC states: sealed with KEK id ${JSON.stringify(kekId)}, which is not configured in ${KEK_ENV} or ${KEK_PREVIOUS_ENV}`,
    );
  }
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(gcmAad(header, aad));
  decipher.setAuthTag(tag);
  const plain = decipher.update(ciphertext);
  try {
    decipher.final();
  } catch {
    plain.fill(0);
    throw new SealedStatesError(
      "auth_failed",
      `sealed HMAC states: authentication failed with KEK ${kekId} (blob tampered, wrong team/slot, or wrong KEK)`,
    );
  }
  return plain;
}

/** Re-seal a blob under the keyring's current KEK (after a KEK rotation). */
export function resealStates(sealed: Uint8Array, keyring: Keyring, aad: string): Buffer {
  const states = unsealStates(sealed, keyring, aad);
  try {
    return sealStates(states, keyring, aad);
  } finally {
    states.fill(0);
  }
}
