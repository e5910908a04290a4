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
  /** A rule's field length is the schema's alone: alerts checks its grammar. */
  filterFieldMaxLength: 200,
  /** Segments after `metadata.` in a rule's field: no deeper than trigger metadata itself. */
  filterFieldMaxSegments: 10,
  /**
   * A filter rule's value: nested as deep as trigger metadata may be (a deeper value could match
   * nothing), and at most 10 KiB as JSON, since every trigger of the webhook is compared with it.
   */
  filterValueMaxDepth: 10,
  filterValueMaxBytes: 10_240,
  /** An Alertmanager webhook's bearer token, rotated: how long the replaced one keeps working, as a team secret's. */
  defaultBearerTokenGraceSeconds: 86_400,
  maxBearerTokenGraceSeconds: 604_800,
} as const;
