/** Bounds of a team API key, enforced by auth (check-name.ts); the gateway's admin schema reads them. */
export const API_KEY_LIMITS = {
  nameMaxLength: 200,
} as const;
