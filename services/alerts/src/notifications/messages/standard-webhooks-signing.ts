import { createHmac, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";
/** Standard Webhooks asks for 24 to 64 random bytes; 32 is a SHA-256 block's worth of key. */
const SECRET_BYTES = 32;

/**
 * A new signing secret for a standard-webhooks channel: "whsec_" + base64 of 32 random bytes, as
 * the Standard Webhooks libraries take it. Shown once; sealed with the channel's URL.
 */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

/**
 * The Standard Webhooks headers of one attempt: webhook-id (the delivery's id, the same on every
 * attempt, so a receiver de-duplicates on it), webhook-timestamp (now, in Unix seconds: each
 * attempt is signed afresh) and webhook-signature, one "v1,<base64>" entry of HMAC-SHA256 over
 * "<id>.<timestamp>.<body>" per secret given (two while a rotated-out secret is in its grace).
 */
export function standardWebhooksHeaders(
  secrets: readonly string[],
  id: string,
  body: Buffer,
  now: number = Date.now(),
): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
    const mac = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest("base64");
    key.fill(0);
    return `v1,${mac}`;
  });
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signatures.join(" ") };
}
