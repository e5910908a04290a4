/**
 * Bounds of a notification channel and of a team's notification policy, enforced by alerts
 * (notifications/channel-service.ts, channel-url.ts, check-routes.ts); the gateway's admin
 * schemas read the same numbers, and alone bound a channel id's length (a longer one names no
 * channel).
 */
export const CHANNEL_LIMITS = {
  nameMaxLength: 200,
  urlMaxLength: 2_048,
  keyMaxLength: 500,
  maxPerTeam: 50,
  maxPolicyRoutes: 50,
  maxChannelsPerRoute: 50,
  idMaxLength: 200,
  /** A standard-webhooks channel's rotated-out signing secret keeps signing beside the new one this long. */
  defaultSigningGraceSeconds: 86_400,
  maxSigningGraceSeconds: 604_800,
} as const;
