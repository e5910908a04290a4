// Standard Webhooks (standardwebhooks.com) over a team's one secret: the same HMAC key, written the
// way its libraries take it, and its webhook-signature header read into the signatures to compare.

const SECRET_PREFIX = "whsec_";
/** One v1 signature: the base64 (with padding) of a 32-byte HMAC-SHA256. */
const V1_SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;
/**
 * A sender signs once per key it holds (two during a rotation); more entries than this, or a
 * longer header, is not a signature list anyone sends, and each entry costs a comparison.
 */
const MAX_ENTRIES = 10;
const MAX_LENGTH = 1_024;

/**
 * "whsec_" + base64 of the secret's text. Standard Webhooks libraries base64-decode what follows
 * the prefix into the HMAC key, so the key bytes are the secret's 64 characters: exactly the key
 * the interface's scheme uses, whose sealed states auth keeps (hmac-states.ts). Nothing new is
 * stored, and it can be shown only when the secret itself is (team creation, rotation).
 */
export function standardWebhooksSecret(secret: string): string {
  return `${SECRET_PREFIX}${Buffer.from(secret, "utf8").toString("base64")}`;
}

/**
 * The v1 signatures of a webhook-signature header, as bytes: space-separated "<version>,<base64>"
 * entries, of which other versions ("v1a" is asymmetric) and malformed entries are skipped, as
 * the reference libraries skip them. Null when the value is not a string, is longer than 1 KiB or
 * has more than 10 entries; it never throws.
 */
export function parseStandardSignatures(value: unknown): Buffer[] | null {
  if (typeof value !== "string" || value.length > MAX_LENGTH) return null;
  const entries = value.split(" ").filter((entry) => entry !== "");
  if (entries.length > MAX_ENTRIES) return null;
  const signatures: Buffer[] = [];
  for (const entry of entries) {
    const comma = entry.indexOf(",");
    if (entry.slice(0, comma) !== "v1") continue;
    const encoded = entry.slice(comma + 1);
    if (V1_SIGNATURE.test(encoded)) signatures.push(Buffer.from(encoded, "base64"));
  }
  return signatures;
}
