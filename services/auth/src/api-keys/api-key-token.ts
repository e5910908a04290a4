import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Every team API key starts with this, so it is recognised in a config file or a leak scan. */
export const TOKEN_PREFIX = "pgk_";
/** The first characters of a token ("pgk_" and 8 more) are stored and shown in clear, to recognise it. */
export const SHOWN_PREFIX_LENGTH = 12;
/** "pgk_" and 32 random bytes as base64url (43 characters). */
const TOKEN_PATTERN = /^pgk_[A-Za-z0-9_-]{43}$/;

export type IssuedToken = { token: string; prefix: string; hash: Buffer };

/**
 * A new token: 256 random bits. A token of that entropy needs no slow hash (nobody can guess
 * one to test against a leaked SHA-256), so SHA-256 is what is stored.
 */
export function issueToken(): IssuedToken {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { token, prefix: token.slice(0, SHOWN_PREFIX_LENGTH), hash: hashToken(token) };
}

export function hashToken(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** The shown prefix of a well-formed token, or null for anything that cannot be one of ours. */
export function prefixOf(token: string): string | null {
  return TOKEN_PATTERN.test(token) ? token.slice(0, SHOWN_PREFIX_LENGTH) : null;
}

/** Constant time over the stored 32-byte hash; false (never a throw) for a wrong length. */
export function tokenMatches(token: string, storedHash: Uint8Array): boolean {
  const presented = hashToken(token);
  return storedHash.length === presented.length && timingSafeEqual(presented, storedHash);
}
