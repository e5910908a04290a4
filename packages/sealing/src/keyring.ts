// Key-encryption keys (KEKs) for sealing secrets at rest, loaded from config.
//
//   SECRET_KEK           comma-separated "base64" or "id:base64" entries, each base64 of
//                        exactly 32 random bytes: the first is the KEK new seals use, the
//                        others older KEKs still accepted for opening (rotation: put the new
//                        key first, run `npm run rotate-kek`, then drop the old ones).
//                        Required when NODE_ENV=production; in development and test it
//                        defaults to DEV_KEK, a fixed and publicly known key.
//   SECRET_KEK_PREVIOUS  optional, more older KEKs in the same form (kept for existing setups).
//
// Without an explicit id, a KEK's id is the first 8 lowercase hex chars of sha256(raw key
// bytes), so ops can compute it:  printf %s "$KEK" | base64 -d | sha256sum | cut -c1-8
// Sealed blobs name the id (seal.ts), so an id must never be reused for a different key.
// Keys are held as KeyObjects so logging a keyring does not print key bytes.
import { createHash, createSecretKey, type KeyObject } from "node:crypto";

export const KEK_ENV = "SECRET_KEK";
export const KEK_PREVIOUS_ENV = "SECRET_KEK_PREVIOUS";
const KEK_BYTES = 32;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const EXPLICIT_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** Publicly known development/test KEK (sha256 of a fixed label). Rejected in production. */
const DEV_KEK_BYTES = createHash("sha256").update("pulsegate development KEK - publicly known, not secret").digest();
export const DEV_KEK_ID = "dev";

export type Kek = { readonly id: string; readonly key: KeyObject };

export type Keyring = {
  /** KEK used for new seals. */
  readonly current: Kek;
  /** Every KEK accepted for opening (current included), by id, the current one first. */
  readonly byId: ReadonlyMap<string, KeyObject>;
};

/** Deterministic KEK id: first 8 hex chars of sha256(key bytes). */
export function kekId(key: Uint8Array): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

function parseKek(entry: string, variable: string, production: boolean): Kek {
  const text = entry.trim();
  const colon = text.indexOf(":"); // base64 never contains ':'
  const explicitId = colon === -1 ? undefined : text.slice(0, colon);
  const base64 = colon === -1 ? text : text.slice(colon + 1);
  if (explicitId !== undefined && !EXPLICIT_ID.test(explicitId)) {
    throw new Error(`${variable} has an invalid KEK id (expected 1-32 of A-Z a-z 0-9 _ - before ':')`);
  }
  // Never echo the value: it is the key.
  if (!BASE64.test(base64) || base64 === "") {
    throw new Error(`${variable} must be standard base64 of ${KEK_BYTES} bytes (invalid base64)`);
  }
  const raw = Buffer.from(base64, "base64");
  try {
    if (raw.length !== KEK_BYTES) {
      throw new Error(`${variable} must be base64 of exactly ${KEK_BYTES} bytes (got ${raw.length} bytes)`);
    }
    if (production && raw.equals(DEV_KEK_BYTES)) {
      throw new Error(`${variable} is the publicly known development KEK; it must not be used in production`);
    }
    return { id: explicitId ?? kekId(raw), key: createSecretKey(raw) };
  } finally {
    raw.fill(0);
  }
}

/**
 * Build the KEK keyring from the SECRET_KEK / SECRET_KEK_PREVIOUS config values.
 * Throws an Error naming the offending variable (never its value).
 */
export function parseKeyring(
  secretKek: string | undefined,
  secretKekPrevious: string | undefined,
  nodeEnv: string,
): Keyring {
  const production = nodeEnv !== "development" && nodeEnv !== "test";
  const entries = (secretKek ?? "").split(",").map((entry) => entry.trim());
  let current: Kek;
  let older: { entry: string; variable: string }[] = [];
  if (entries.every((entry) => entry === "")) {
    if (production) {
      throw new Error(`${KEK_ENV} is required when NODE_ENV=${nodeEnv} (base64 of ${KEK_BYTES} random bytes)`);
    }
    current = { id: DEV_KEK_ID, key: createSecretKey(Buffer.from(DEV_KEK_BYTES)) };
  } else {
    entries.forEach((entry, i) => {
      if (entry === "") throw new Error(`${KEK_ENV}[${i}] is empty (stray comma in ${KEK_ENV}?)`);
    });
    // A single key is named SECRET_KEK in errors, as it always was; in a list, by position.
    current = parseKek(entries[0] as string, entries.length === 1 ? KEK_ENV : `${KEK_ENV}[0]`, production);
    older = entries.slice(1).map((entry, i) => ({ entry, variable: `${KEK_ENV}[${i + 1}]` }));
  }
  const previousText = secretKekPrevious?.trim() ?? "";
  if (previousText !== "") {
    previousText.split(",").forEach((entry, i) => {
      const variable = `${KEK_PREVIOUS_ENV}[${i}]`;
      if (entry.trim() === "") throw new Error(`${variable} is empty (stray comma in ${KEK_PREVIOUS_ENV}?)`);
      older.push({ entry, variable });
    });
  }
  const byId = new Map<string, KeyObject>([[current.id, current.key]]);
  for (const { entry, variable } of older) {
    const kek = parseKek(entry, variable, production);
    const known = byId.get(kek.id);
    if (known === undefined) byId.set(kek.id, kek.key);
    else if (!known.equals(kek.key)) {
      throw new Error(`${variable} has KEK id ${JSON.stringify(kek.id)}, already used by a different configured KEK`);
    } // the same KEK listed twice is harmless
  }
  return { current, byId };
}
