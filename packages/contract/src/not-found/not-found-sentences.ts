/**
 * The one sentence of each not-found code, answered by more than one process: the owning service
 * for an unknown id, the gateway for an unknown (or disabled, or paused) URL and for another
 * team's resource. The interface answers a disabled webhook and a paused monitor "as unknown", so
 * one sentence fits every case.
 */
export const NOT_FOUND_SENTENCES = {
  team_not_found: "No team has that id.",
  webhook_not_found: "No such webhook.",
  alert_not_found: "No alert has that id.",
  monitor_not_found: "No such monitor.",
  channel_not_found: "No channel has that id.",
  delivery_not_found: "No delivery has that id.",
  api_key_not_found: "No API key has that id.",
} as const;
