/**
 * The one sentence of each not-found code answered by more than one process: alerts and monitors
 * for an unknown id, the gateway for an unknown (or disabled, or paused) URL and for another
 * team's resource. The interface answers a disabled webhook and a paused monitor "as unknown", so
 * one sentence fits every case.
 */
export const NOT_FOUND_SENTENCES = {
  webhook_not_found: "No such webhook.",
  monitor_not_found: "No such monitor.",
} as const;
