import { type PgPool, rowDate, run, statement } from "@pulsegate/db";
import type { Recurrence, Silence, SilenceMatchers } from "./silence.ts";

/**
 * The silences that may still apply (recurring ones, and windows not yet over) of the given
 * teams: one prepared statement on the trigger path's plain pg pool.
 */
const SELECT_LIVE_SILENCES = statement(
  "alerts-live-silences",
  `SELECT * FROM alerts.silences
    WHERE team_id = ANY($1::text[]) AND (recurrence IS NOT NULL OR ends_at > now())
    ORDER BY team_id, created_at, id`,
);

/** A row as pg returns it (timestamps may come back as text from the embedded database). */
type SilenceRow = {
  id: string;
  team_id: string;
  name: string;
  starts_at: Date | string;
  ends_at: Date | string;
  recurrence: Recurrence | null;
  matchers: SilenceMatchers;
  created_at: Date | string;
};

export async function selectLiveSilences(pool: PgPool, teamIds: string[]): Promise<Silence[]> {
  const rows = await run<SilenceRow>(pool, SELECT_LIVE_SILENCES, [teamIds]);
  return rows.map((row) => ({
    id: row.id,
    teamId: row.team_id,
    name: row.name,
    startsAt: rowDate(row.starts_at),
    endsAt: rowDate(row.ends_at),
    recurrence: row.recurrence,
    matchers: row.matchers,
    createdAt: rowDate(row.created_at),
  }));
}
