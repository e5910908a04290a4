/**
 * Bounds of the dashboard's sessions, enforced by the gateway's session stores
 * (services/gateway/src/routes/dashboard/*-session-store.ts, docs/dashboard.md). Signing in makes
 * a session, so each bound drops only the oldest of whoever went over it: one tenant's sign-ins
 * never end another tenant's sessions, nor the admin's.
 */
export const DASHBOARD_SESSION_LIMITS = {
  /** Live sessions of one principal (the admin token, or one team API key). */
  perPrincipal: 50,
  /** Live sessions of all of one team's API keys together (a team can make many keys). */
  perTeam: 200,
  /**
   * Team API key sessions one gateway holds in memory when there is no Redis. Full, it refuses a
   * key with no session of its own rather than evicting anyone's; the admin token's are apart.
   */
  inProcessMax: 10_000,
} as const;
