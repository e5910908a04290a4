/**
 * Bounds of a heartbeat ping (the interface, section 4), enforced by the gateway's ping
 * validation before monitors stores it; its group key is bounded by ALERT_LIMITS.
 */
export const PING_LIMITS = {
  reasonMaxLength: 200,
} as const;
