/**
 * Bounds of a heartbeat ping (the interface, section 4), enforced by the gateway's ping
 * validation before monitors stores it; its group key is bounded by ALERT_LIMITS.
 */
export const PING_LIMITS = {
  reasonMaxLength: 200,
  /** Accepted pings per ping URL within a sliding window (the interface, section 8). */
  perUrlPerWindow: 10,
  windowSeconds: 60,
} as const;
