/**
 * Bounds of the Idempotency-Key header on triggers, resolves and pings, checked by the gateway;
 * alerts and monitors keep each key for `keptHours` (their retention prunes it after that).
 * Stripe's convention: up to 255 characters, remembered for 24 hours.
 */
export const IDEMPOTENCY_LIMITS = {
  keyMaxLength: 255,
  keptHours: 24,
} as const;
