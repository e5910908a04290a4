/**
 * Defaults and bounds of a team's settings, enforced by auth (docs/decisions.md). The gateway's
 * admin schemas read the same numbers, so the two can never disagree.
 */
export const TEAM_LIMITS = {
  nameMaxLength: 200,
  defaultAlertQuotaMonthly: 10_000,
  defaultHeartbeatQuotaMonthly: 100_000,
  quotaMax: 100_000_000,
  defaultGraceSeconds: 86_400,
  maxGraceSeconds: 604_800,
} as const;
