/**
 * Defaults and bounds of a monitor's settings, enforced by monitors (DESIGN §5); the gateway's admin
 * schema reads them. The schedule's and time zone's lengths are the schema's alone: monitors checks
 * what they say (a cron expression, a zone the runtime knows).
 */
export const MONITOR_LIMITS = {
  nameMaxLength: 200,
  defaultIntervalSeconds: 300,
  defaultGraceSeconds: 60,
  defaultSeverity: "sev2",
  defaultReopenWindowSeconds: 3_600,
  maxIntervalSeconds: 31_536_000,
  maxGraceSeconds: 31_536_000,
  maxReopenWindowSeconds: 31_536_000,
  maxMaxDurationSeconds: 31_536_000,
  minRepeatIntervalSeconds: 60,
  maxRepeatIntervalSeconds: 7 * 86_400,
  scheduleMaxLength: 200,
  timezoneMaxLength: 100,
} as const;
