/**
 * Webhook and ping URL tokens are base64url (24 random bytes: 32 characters).
 * Anything else cannot name a resource, so it is unknown without asking a
 * service, and odd bytes (U+0000, say) never reach a database.
 */
export function isUrlToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,128}$/.test(value);
}
