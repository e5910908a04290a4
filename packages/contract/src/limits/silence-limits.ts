import { ALERT_LIMITS } from "./alert-limits.ts";

/**
 * Bounds of a maintenance window or silence, enforced by alerts (silences/silence.ts,
 * silences/check-silence-metadata.ts, and the per-team ones in silences/silence-service.ts);
 * the gateway's admin schema reads the same numbers (and alone bounds each source id: a longer
 * one could match no webhook or monitor).
 *
 * Every trigger batch reads and matches the live silences of its teams, so what one team stores
 * here is bounded in total, not only per silence: the matchers of all its silences together
 * (UTF-8 bytes of their JSON as PostgreSQL stores it) at most `matchersMaxBytesPerTeam`. That
 * caps what a batch of another team can ever wait on (docs/decisions.md, "Per-team bounds").
 */
export const SILENCE_LIMITS = {
  nameMaxLength: 200,
  maxSourceIds: 100,
  sourceIdMaxLength: 200,
  groupKeyPrefixMaxLength: 200,
  maxPerTeam: 100,
  /** UTF-8 bytes of `matchers.metadata` as JSON. */
  metadataMaxBytes: 4_096,
  /** Counted as a trigger's metadata (`{}` is level 1): a deeper value could never equal one. */
  metadataMaxDepth: ALERT_LIMITS.metadataMaxDepth,
  /** Top-level keys of `matchers.metadata` (each must equal the trigger's value). */
  metadataMaxKeys: 20,
  /** Characters of one key. */
  metadataKeyMaxLength: 200,
  /** UTF-8 bytes of one key's value as JSON. */
  metadataValueMaxBytes: 1_024,
  /** UTF-8 bytes of all a team's matchers (source ids, prefix, metadata) as stored. */
  matchersMaxBytesPerTeam: 131_072,
} as const;
