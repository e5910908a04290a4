// A team's webhook secret: 32 CSPRNG bytes rendered as 64 lowercase hex
// chars. It is shown to the team once and never stored; only its fingerprint
// (for display/audit) and the sealed HMAC states are kept.
import { createHash, randomBytes } from "node:crypto";

const SECRET_TEXT = /^[0-9a-f]{64}$/;

export type GeneratedSecret = {
  /** 64 lowercase hex chars. Return to the caller once; never store or log. */
  readonly secret: string;
  /** Lowercase hex SHA-256 of the secret text; safe to store and display. */
  readonly fingerprint: string;
};

/** True for exactly 64 lowercase hex chars (the only secret format we issue). */
export function isSecretText(value: unknown): value is string {
  return typeof value === "string" && SECRET_TEXT.test(value);
}

/** hex(sha256(utf8(secret))). */
export function fingerprintSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function generateSecret(): GeneratedSecret {
  const secret = randomBytes(32).toString("hex");
  return { secret, fingerprint: fingerprintSecret(secret) };
}
