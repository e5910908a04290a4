import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Every Alertmanager webhook's bearer token starts with this, so it is recognised in a config file or a leak scan. */
const TOKEN_PREFIX = "pgam_";

export type IssuedBearerToken = { token: string; hash: Buffer };

/**
 * A new bearer token for an Alertmanager webhook: "pgam_" and 32 random bytes as base64url (43
 * characters). A token of 256 random bits needs no slow hash (nobody can guess one to test against
 * a leaked SHA-256), so its SHA-256 is all that is stored.
 */
export function issueBearerToken(): IssuedBearerToken {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashBearerToken(token) };
}

function hashBearerToken(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** Constant time over a stored 32-byte hash; false (never a throw) for a missing hash or a wrong length. */
export function bearerTokenMatches(token: string, storedHash: Uint8Array | null | undefined): boolean {
  if (!storedHash) return false;
  const presented = hashBearerToken(token);
  return storedHash.length === presented.length && timingSafeEqual(presented, storedHash);
}
