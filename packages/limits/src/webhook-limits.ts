/**
 * Defaults and bounds of a webhook's settings, enforced by alerts (docs/decisions.md). The gateway
 * reads them for its admin schemas and for the rate limit of a webhook that has none.
 */
export const WEBHOOK_LIMITS = {
  nameMaxLength: 200,
  defaultSeverity: "sev2",
  defaultRateLimitPerMinute: 120,
  maxRateLimitPerMinute: 100_000,
  defaultReopenWindowSeconds: 3_600,
  maxReopenWindowSeconds: 30 * 86_400,
  minRepeatIntervalSeconds: 60,
  maxRepeatIntervalSeconds: 7 * 86_400,
  maxFilterRules: 50,
  /** A rule's field and operator lengths are the schema's alone: alerts checks their grammar and the operators. */
  filterFieldMaxLength: 200,
  filterOpMaxLength: 20,
  /**
   * UTF-8 bytes of a filter rule's value as JSON, checked by alerts: every trigger of the webhook
   * reads the rules, and they are kept per webhook in memory.
   */
  filterValueMaxBytes: 4_096,
} as const;
