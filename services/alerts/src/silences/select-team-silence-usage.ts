import type { EntityManager } from "@pulsegate/db";

/** Serialises the creations of one team's silences, so its bounds hold when creates race. */
const LOCK_TEAM_SILENCES = "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))";

/**
 * How many silences the team has and how many bytes their matchers take as stored (the
 * generated `matchers_bytes`), and what `matchersJson` would take stored the same way.
 */
const SELECT_TEAM_SILENCE_USAGE = `
  SELECT count(*)::int AS silences, coalesce(sum(matchers_bytes), 0)::int AS matcher_bytes,
         octet_length(?::jsonb::text) AS new_matcher_bytes
    FROM alerts.silences WHERE team_id = ?`;

export type TeamSilenceUsage = { silences: number; matcherBytes: number; newMatcherBytes: number };

/** Within `em`'s transaction: takes the team's silence lock (held until it ends), then reads its usage. */
export async function lockTeamSilenceUsage(
  em: EntityManager,
  teamId: string,
  matchersJson: string,
): Promise<TeamSilenceUsage> {
  await em.execute(LOCK_TEAM_SILENCES, [`alerts:silences:${teamId}`]);
  const [row] = await em.execute<{ silences: number; matcher_bytes: number; new_matcher_bytes: number }[]>(
    SELECT_TEAM_SILENCE_USAGE,
    [matchersJson, teamId],
  );
  return {
    silences: row?.silences ?? 0,
    matcherBytes: row?.matcher_bytes ?? 0,
    newMatcherBytes: row?.new_matcher_bytes ?? 0,
  };
}
