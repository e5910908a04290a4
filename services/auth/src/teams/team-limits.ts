/** Defaults and bounds of a team's settings (docs/decisions.md). */
export const TEAM_LIMITS = {
  nameMaxLength: 200,
  defaultAlertQuotaMonthly: 10_000,
  defaultHeartbeatQuotaMonthly: 100_000,
  quotaMax: 100_000_000,
  defaultGraceSeconds: 86_400,
  maxGraceSeconds: 604_800,
} as const;
