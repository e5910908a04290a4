// Seal / open a small secret value (a channel's credentials, ...) with AES-256-GCM under a
// key derived from a KEK for one purpose, so one KEK never encrypts two kinds of data
// under the same key (auth's HMAC states keep their own format, services/auth/src/secrets/seal.ts).
//
// Sealed value, format version 1 (sizes in bytes):
//
//   offset   size  field
//   0        1     format version = 0x01
//   1        1     n = length of the KEK id (1..255)
//   2        n     KEK id, ASCII (keyring.ts): the KEK the value was sealed under
//   2+n      12    IV, random per seal
//   14+n     m     ciphertext (as long as the plaintext)
//   14+n+m   16    GCM authentication tag
//
// Key: HKDF-SHA256(KEK, salt = empty, info = "pulsegate/sealed-value/" || purpose), 32 bytes.
// GCM additional data (not stored): "pulsegate/sealed-value/" || purpose || 0x00 ||
// blob[0 .. 2+n) (version, id length, id) || utf8(aad), where `aad` binds the value to its
// owner (a channel id): a value copied onto another row does not open.
import { createCipheriv, createDecipheriv, hkdfSync, type KeyObject, randomBytes } from "node:crypto";
import { KEK_ENV, type Keyring } from "./keyring.ts";

const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const LABEL = "pulsegate/sealed-value/";

export class SealedValueError extends Error {
  readonly code: "malformed" | "unknown_kek" | "auth_failed";
  constructor(code: SealedValueError["code"], message: string) {
    super(message);
    this.name = "SealedValueError";
    this.code = code;
  }
}

/** Derived keys, per KEK object and purpose (HKDF is cheap, but not free per message). */
const derived = new WeakMap<KeyObject, Map<string, Buffer>>();

function purposeKey(kek: KeyObject, purpose: string): Buffer {
  let byPurpose = derived.get(kek);
  if (!byPurpose) {
    byPurpose = new Map();
    derived.set(kek, byPurpose);
  }
  let key = byPurpose.get(purpose);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", kek, Buffer.alloc(0), `${LABEL}${purpose}`, 32));
    byPurpose.set(purpose, key);
  }
  return key;
}

function additionalData(purpose: string, header: Uint8Array, aad: string): Buffer {
  if (aad === "") throw new TypeError("sealed value: aad (the owner binding) must be a non-empty string");
  return Buffer.concat([Buffer.from(`${LABEL}${purpose}\0`, "utf8"), header, Buffer.from(aad, "utf8")]);
}

/** Seals `plain` under the keyring's current KEK for `purpose`, bound to `aad`. */
export function sealValue(plain: Uint8Array, keyring: Keyring, purpose: string, aad: string): Buffer {
  const { id, key } = keyring.current;
  const idBytes = Buffer.from(id, "ascii");
  const header = Buffer.concat([Buffer.from([FORMAT_VERSION, idBytes.length]), idBytes]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", purposeKey(key, purpose), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(purpose, header, aad));
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([header, iv, ciphertext, cipher.getAuthTag()]);
}

/** The id of the KEK a value was sealed under (rotation finds values not under the current one). */
export function sealedValueKekId(sealed: Uint8Array): string {
  const blob = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const idLength = blob[1] ?? 0;
  if (blob[0] !== FORMAT_VERSION || idLength === 0 || blob.length < 2 + idLength + IV_BYTES + TAG_BYTES) {
    throw new SealedValueError("malformed", "sealed value: malformed or unsupported format");
  }
  return blob.toString("latin1", 2, 2 + idLength);
}

/** Opens a sealed value; the caller owns the plaintext (wipe it when done). Throws SealedValueError. */
export function openValue(sealed: Uint8Array, keyring: Keyring, purpose: string, aad: string): Buffer {
  const kekId = sealedValueKekId(sealed);
  const blob = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const key = keyring.byId.get(kekId);
  if (key === undefined) {
    throw new SealedValueError(
      "unknown_kek",
      `sealed value: sealed with KEK id ${JSON.stringify(kekId)}, which ${KEK_ENV} does not list`,
    );
  }
  const ivAt = 2 + kekId.length;
  const tagAt = blob.length - TAG_BYTES;
  const decipher = createDecipheriv("aes-256-gcm", purposeKey(key, purpose), blob.subarray(ivAt, ivAt + IV_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(additionalData(purpose, blob.subarray(0, ivAt), aad));
  decipher.setAuthTag(blob.subarray(tagAt));
  const plain = decipher.update(blob.subarray(ivAt + IV_BYTES, tagAt));
  try {
    decipher.final();
  } catch {
    plain.fill(0);
    throw new SealedValueError("auth_failed", `sealed value: authentication failed with KEK ${kekId}`);
  }
  return plain;
}

/** Re-seals a value under the current KEK (after a KEK rotation). */
export function resealValue(sealed: Uint8Array, keyring: Keyring, purpose: string, aad: string): Buffer {
  const plain = openValue(sealed, keyring, purpose, aad);
  try {
    return sealValue(plain, keyring, purpose, aad);
  } finally {
    plain.fill(0);
  }
}
