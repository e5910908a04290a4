import { SILENCE_LIMITS } from "@pulsegate/contract/limits";
import { type PgPool, rowDate, run, statement } from "@pulsegate/db";
import type { Recurrence, SilenceMatchers } from "./silence.ts";
import type { LiveSilence } from "./silence-matcher.ts";

/**
 * The silences that may still apply (recurring ones, and windows not yet over) of the given
 * teams, with only what matching needs: one prepared statement on the trigger path's plain pg
 * pool. Each team's are read oldest first up to its matchers' total (SILENCE_LIMITS), summed
 * from the stored sizes without reading the matchers themselves: what the team may store under
 * its bounds is read whole, and a batch never reads more of one team than that, whatever was
 * stored before the bounds existed.
 */
const SELECT_LIVE_SILENCES = statement(
  "alerts-live-silences",
  `SELECT id, team_id, starts_at, ends_at, recurrence, matchers
     FROM (SELECT id, team_id, starts_at, ends_at, recurrence, matchers, created_at,
                  sum(matchers_bytes) OVER (PARTITION BY team_id ORDER BY created_at, id) AS team_bytes
             FROM alerts.silences
            WHERE team_id = ANY($1::text[]) AND (recurrence IS NOT NULL OR ends_at > now())) AS live
    WHERE team_bytes <= $2
    ORDER BY team_id, created_at, id`,
);

/** A row as pg returns it (timestamps may come back as text from the embedded database). */
type LiveSilenceRow = {
  id: string;
  team_id: string;
  starts_at: Date | string;
  ends_at: Date | string;
  recurrence: Recurrence | null;
  matchers: SilenceMatchers;
};

export async function selectLiveSilences(
  pool: PgPool,
  teamIds: string[],
): Promise<(LiveSilence & { teamId: string })[]> {
  const rows = await run<LiveSilenceRow>(pool, SELECT_LIVE_SILENCES, [teamIds, SILENCE_LIMITS.matchersMaxBytesPerTeam]);
  return rows.map((row) => ({
    id: row.id,
    teamId: row.team_id,
    startsAt: rowDate(row.starts_at),
    endsAt: rowDate(row.ends_at),
    recurrence: row.recurrence,
    matchers: row.matchers,
  }));
}
