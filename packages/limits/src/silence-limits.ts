/**
 * Bounds of a maintenance window or silence, enforced by alerts (silences/silence.ts); the
 * gateway's admin schema reads the same numbers (and alone bounds each source id: a longer one
 * could match no webhook or monitor).
 */
export const SILENCE_LIMITS = {
  nameMaxLength: 200,
  maxSourceIds: 100,
  sourceIdMaxLength: 200,
  groupKeyPrefixMaxLength: 200,
  maxPerTeam: 100,
} as const;
