/**
 * How many items one batch gRPC call may carry, enforced by the alerts and monitors servers; the
 * gateway's batchers (triggers, pings, monitor look-ups) never send more.
 */
export const BATCH_LIMITS = {
  maxItemsPerCall: 500,
} as const;
