import { randomUUID } from "node:crypto";
import { type PgPool, run, statement } from "@pulsegate/db";
import { findUnstorableText } from "@pulsegate/text";
import { alertsErrors } from "../errors.ts";
import { checkSilence, type Silence, type SilenceInput } from "./silence.ts";

type SilenceRow = {
  id: string;
  team_id: string;
  name: string;
  starts_at: Date | string;
  ends_at: Date | string;
  recurrence: "daily" | "weekly" | null;
  matchers: Silence["matchers"];
  created_at: Date | string;
};

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function fromRow(row: SilenceRow): Silence {
  return {
    id: row.id,
    teamId: row.team_id,
    name: row.name,
    startsAt: toDate(row.starts_at),
    endsAt: toDate(row.ends_at),
    recurrence: row.recurrence,
    matchers: row.matchers,
    createdAt: toDate(row.created_at),
  };
}

/** The silences that may still apply (recurring ones, and windows not yet over) of the given teams. */
const LIVE_FOR_TEAMS = statement(
  "alerts-live-silences",
  `SELECT * FROM alerts.silences
    WHERE team_id = ANY($1::text[]) AND (recurrence IS NOT NULL OR ends_at > now())
    ORDER BY team_id, created_at, id`,
);

const MAX_PER_TEAM = 100;

/**
 * A team's maintenance windows and silences (issue 13). The trigger path asks
 * for the live silences of a batch's teams in one statement, kept `cacheMs`
 * per team (a change made through this replica applies at once, through
 * another within that time).
 */
export class SilenceService {
  readonly #pool: PgPool;
  readonly #cacheMs: number;
  readonly #cache = new Map<string, { silences: Silence[]; expiresAt: number }>();

  constructor(pool: PgPool, options: { cacheMs?: number } = {}) {
    this.#pool = pool;
    this.#cacheMs = options.cacheMs ?? 0;
  }

  async create(teamId: string, input: SilenceInput): Promise<Silence> {
    if (!teamId) throw alertsErrors.invalid([{ field: "teamId", message: "teamId is required." }]);
    const { silence, errors } = checkSilence(input);
    const text = findUnstorableText(
      { name: input.name, groupKeyPrefix: input.groupKeyPrefix, sourceIds: input.sourceIds },
      "",
    );
    if (errors.length > 0 || text.length > 0 || !silence) throw alertsErrors.invalid([...errors, ...text]);
    const [count] = await run<{ n: number }>(
      this.#pool,
      statement("alerts-count-silences", "SELECT count(*)::int AS n FROM alerts.silences WHERE team_id = $1"),
      [teamId],
    );
    if ((count?.n ?? 0) >= MAX_PER_TEAM) {
      throw alertsErrors.invalid([{ field: "teamId", message: `A team has at most ${MAX_PER_TEAM} silences.` }]);
    }
    const [row] = await run<SilenceRow>(
      this.#pool,
      statement(
        "alerts-create-silence",
        `INSERT INTO alerts.silences (id, team_id, name, starts_at, ends_at, recurrence, matchers, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, now()) RETURNING *`,
      ),
      [
        `sil_${randomUUID().replaceAll("-", "")}`,
        teamId,
        silence.name,
        silence.startsAt,
        silence.endsAt,
        silence.recurrence,
        JSON.stringify(silence.matchers),
      ],
    );
    this.#cache.delete(teamId);
    return fromRow(row as SilenceRow);
  }

  async list(teamId: string): Promise<Silence[]> {
    const rows = await run<SilenceRow>(
      this.#pool,
      statement("alerts-list-silences", "SELECT * FROM alerts.silences WHERE team_id = $1 ORDER BY created_at, id"),
      [teamId],
    );
    return rows.map(fromRow);
  }

  /** Deleting twice, or a silence of another team, is harmless and says so: false. */
  async delete(teamId: string, id: string): Promise<boolean> {
    const rows = await run<{ id: string }>(
      this.#pool,
      statement("alerts-delete-silence", "DELETE FROM alerts.silences WHERE team_id = $1 AND id = $2 RETURNING id"),
      [teamId, id],
    );
    this.#cache.delete(teamId);
    return rows.length > 0;
  }

  /** The live silences of each team (one statement for the teams not cached). */
  async forTeams(teamIds: readonly string[], now: number = Date.now()): Promise<Map<string, Silence[]>> {
    const out = new Map<string, Silence[]>();
    const missing: string[] = [];
    for (const teamId of new Set(teamIds)) {
      const hit = this.#cache.get(teamId);
      if (hit && hit.expiresAt > now) out.set(teamId, hit.silences);
      else missing.push(teamId);
    }
    if (missing.length === 0) return out;
    const rows = await run<SilenceRow>(this.#pool, LIVE_FOR_TEAMS, [missing]);
    for (const teamId of missing) out.set(teamId, []);
    for (const row of rows) out.get(row.team_id)?.push(fromRow(row));
    if (this.#cacheMs > 0) {
      if (this.#cache.size > 50_000) this.#cache.clear();
      for (const teamId of missing) {
        this.#cache.set(teamId, { silences: out.get(teamId) ?? [], expiresAt: now + this.#cacheMs });
      }
    }
    return out;
  }
}
