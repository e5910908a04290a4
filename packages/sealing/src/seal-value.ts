// Seal / open a small secret value (a channel's credentials, a team's HMAC states, a dashboard
// session) with AES-256-GCM under a key derived from a KEK for one purpose, so one KEK never
// encrypts two kinds of data under the same key. The one sealed format of Pulsegate.
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
//
// Auth's HMAC states (purpose HMAC_STATES) were sealed in this format before purposes had keys
// of their own: under the KEK itself, with additional data "pulsegate/sealed-hmac-states" 0x00 ||
// header || utf8(aad). They keep that key and label, so every stored team secret opens as it was
// sealed.
import { createCipheriv, createDecipheriv, hkdfSync, type KeyObject, randomBytes } from "node:crypto";
import { KEK_ENV, KEK_PREVIOUS_ENV, type Keyring } from "./keyring.ts";

const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const LABEL = "pulsegate/sealed-value/";

/** The purpose of auth's sealed HMAC states, sealed under the KEK itself (see above). */
export const HMAC_STATES = "hmac-states";

export class SealedValueError extends Error {
  readonly code: "malformed" | "unsupported_version" | "unknown_kek" | "auth_failed";
  constructor(code: SealedValueError["code"], message: string) {
    super(message);
    this.name = "SealedValueError";
    this.code = code;
  }
}

/** A purpose's key under a KEK, the label of its additional data, and its name in errors. */
type Scheme = { key: (kek: KeyObject) => KeyObject | Buffer; label: Buffer; what: string };

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

const HMAC_STATES_SCHEME: Scheme = {
  key: (kek) => kek,
  label: Buffer.from("pulsegate/sealed-hmac-states\0", "utf8"),
  what: "sealed HMAC states",
};

function schemeOf(purpose: string): Scheme {
  if (purpose === HMAC_STATES) return HMAC_STATES_SCHEME;
  return {
    key: (kek) => purposeKey(kek, purpose),
    label: Buffer.from(`${LABEL}${purpose}\0`, "utf8"),
    what: "sealed value",
  };
}

function additionalData(scheme: Scheme, header: Uint8Array, aad: string): Buffer {
  if (typeof aad !== "string" || aad === "") {
    throw new TypeError(`${scheme.what}: aad (the owner binding) must be a non-empty string`);
  }
  return Buffer.concat([scheme.label, header, Buffer.from(aad, "utf8")]);
}

/** Seals `plain` under the keyring's current KEK for `purpose`, bound to `aad`. */
export function sealValue(plain: Uint8Array, keyring: Keyring, purpose: string, aad: string): Buffer {
  const scheme = schemeOf(purpose);
  const { id, key } = keyring.current;
  const idBytes = Buffer.from(id, "ascii");
  if (idBytes.length < 1 || idBytes.length > 255) throw new RangeError("KEK id must be 1..255 ASCII bytes");
  const header = Buffer.concat([Buffer.from([FORMAT_VERSION, idBytes.length]), idBytes]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", scheme.key(key), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(scheme, header, aad));
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([header, iv, ciphertext, cipher.getAuthTag()]);
}

type Parsed = { header: Buffer; kekId: string; iv: Buffer; ciphertext: Buffer; tag: Buffer };

/** The blob's parts; `plainBytes`: the plaintext's length when only one is valid (checked here). */
function parse(sealed: Uint8Array, what: string, plainBytes?: number): Parsed {
  if (!(sealed instanceof Uint8Array)) throw new SealedValueError("malformed", `${what}: expected bytes`);
  const blob = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const version = blob[0];
  if (version === undefined) throw new SealedValueError("malformed", `${what}: empty blob`);
  if (version !== FORMAT_VERSION) {
    throw new SealedValueError("unsupported_version", `${what}: unsupported format version ${version}`);
  }
  const idLength = blob[1] ?? 0;
  const least = 2 + idLength + IV_BYTES + TAG_BYTES;
  const fits = plainBytes === undefined ? blob.length >= least : blob.length === least + plainBytes;
  if (idLength === 0 || !fits) {
    const expected = idLength === 0 ? "a KEK id" : plainBytes === undefined ? `at least ${least}` : least + plainBytes;
    throw new SealedValueError("malformed", `${what}: malformed blob (length ${blob.length}, expected ${expected})`);
  }
  const ivAt = 2 + idLength;
  const tagAt = blob.length - TAG_BYTES;
  return {
    header: blob.subarray(0, ivAt),
    kekId: blob.toString("latin1", 2, ivAt),
    iv: blob.subarray(ivAt, ivAt + IV_BYTES),
    ciphertext: blob.subarray(ivAt + IV_BYTES, tagAt),
    tag: blob.subarray(tagAt),
  };
}

/** The id of the KEK a value was sealed under (rotation finds values not under the current one). */
export function sealedValueKekId(sealed: Uint8Array): string {
  return parse(sealed, "sealed value").kekId;
}

/**
 * Opens a sealed value; the caller owns the plaintext (wipe it when done). `plainBytes`: its
 * length, where only one is valid (a blob of another length is malformed). Throws SealedValueError.
 */
export function openValue(
  sealed: Uint8Array,
  keyring: Keyring,
  purpose: string,
  aad: string,
  plainBytes?: number,
): Buffer {
  const scheme = schemeOf(purpose);
  const { header, kekId, iv, ciphertext, tag } = parse(sealed, scheme.what, plainBytes);
  const key = keyring.byId.get(kekId);
  if (key === undefined) {
    throw new SealedValueError(
      "unknown_kek",
      `${scheme.what}: sealed with KEK id ${JSON.stringify(kekId)}, which is not configured in ${KEK_ENV} or ${KEK_PREVIOUS_ENV}`,
    );
  }
  const decipher = createDecipheriv("aes-256-gcm", scheme.key(key), iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(additionalData(scheme, header, aad));
  decipher.setAuthTag(tag);
  const plain = decipher.update(ciphertext);
  try {
    decipher.final();
  } catch {
    plain.fill(0);
    throw new SealedValueError(
      "auth_failed",
      `${scheme.what}: authentication failed with KEK ${kekId} (tampered, another owner's, or the wrong KEK)`,
    );
  }
  return plain;
}

/** Re-seals a value under the current KEK (after a KEK rotation); opened as openValue opens it. */
export function resealValue(...opening: Parameters<typeof openValue>): Buffer {
  const [, keyring, purpose, aad] = opening;
  const plain = openValue(...opening);
  try {
    return sealValue(plain, keyring, purpose, aad);
  } finally {
    plain.fill(0);
  }
}
