/**
 * Bounds of an alert trigger and of a group key (the interface, section 4), enforced by the
 * gateway's trigger, ping and resolve validation; alerts checks a resolve's group key again
 * (resolve-by-key.ts) and monitors clips an incident's title to the same length.
 */
export const ALERT_LIMITS = {
  titleMaxLength: 200,
  descriptionMaxLength: 2_000,
  groupKeyMaxLength: 200,
  metadataMaxBytes: 102_400,
  metadataMaxDepth: 10,
} as const;
