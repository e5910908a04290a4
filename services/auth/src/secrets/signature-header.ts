// Parse a webhook signature header: 64 hex chars (any case), optionally
// prefixed with "sha256=". Anything else yields null; it never throws.
const HEADER = /^(?:sha256=)?([0-9a-f]{64})$/i;
const MAX_LENGTH = "sha256=".length + 64;

/** The 32 signature bytes, or null if the value is not a valid signature header. */
export function parseSignatureHeader(value: unknown): Buffer | null {
  if (typeof value !== "string" || value.length > MAX_LENGTH) return null;
  const hex = HEADER.exec(value)?.[1];
  return hex === undefined ? null : Buffer.from(hex, "hex");
}
