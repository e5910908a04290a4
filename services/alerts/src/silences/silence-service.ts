import { randomUUID } from "node:crypto";
import { SILENCE_LIMITS } from "@pulsegate/contract/limits";
import { findUnstorableText } from "@pulsegate/contract/text";
import { type Orm, onUniqueViolation, type PgPool } from "@pulsegate/db";
import { BatchReadCache } from "../caching/batch-read-cache.ts";
import { alertsErrors } from "../errors.ts";
import { selectLiveSilences } from "./select-live-silences.ts";
import { lockTeamSilenceUsage } from "./select-team-silence-usage.ts";
import { type SilenceEntity, SilenceSchema } from "./silence.entity.ts";
import { checkSilence, type Silence, type SilenceInput } from "./silence.ts";
import { compileSilence, matcherSize, type SilenceMatcher } from "./silence-matcher.ts";

/** The entity types a nullable column as optional; a silence says null. */
const asSilence = (silence: SilenceEntity): Silence => ({ ...silence, recurrence: silence.recurrence ?? null });

/**
 * Room for the compiled silences of this many teams, and this much of them in all (matcherSize):
 * a team at its whole allowance takes about 150 KB, so hundreds of those fit, and tens of
 * thousands of teams with a few small silences.
 */
const CACHE_MAX_TEAMS = 50_000;
const CACHE_MAX_SIZE = 32 * 1024 * 1024;

/** A team without silences still takes an entry. */
const TEAM_ENTRY_SIZE = 100;

/**
 * A team's maintenance windows and silences. Trigger batches get each team's live silences
 * compiled for matching (silence-matcher.ts), read in one statement for the teams of a batch not
 * cached and kept `cacheMs` per team (a change made through this replica applies at once,
 * through another within that time).
 */
export class SilenceService {
  readonly #orm: Orm;
  readonly #pool: PgPool;
  readonly #live: BatchReadCache<SilenceMatcher[]>;

  /** `pool`: the trigger path's plain pg pool (live silences); the ORM for the rest. */
  constructor(orm: Orm, pool: PgPool, options: { cacheMs?: number } = {}) {
    this.#orm = orm;
    this.#pool = pool;
    this.#live = new BatchReadCache<SilenceMatcher[]>({
      ttlMs: options.cacheMs ?? 0,
      load: (teamIds) => this.#readLive(teamIds),
      maxEntries: CACHE_MAX_TEAMS,
      maxSize: CACHE_MAX_SIZE,
      sizeOf: (matchers) => TEAM_ENTRY_SIZE + (matchers ?? []).reduce((sum, one) => sum + matcherSize(one), 0),
    });
  }

  async create(teamId: string, input: SilenceInput): Promise<Silence> {
    if (!teamId) throw alertsErrors.invalid([{ field: "teamId", message: "teamId is required." }]);
    const { silence, errors } = checkSilence(input);
    const text = findUnstorableText(
      { name: input.name, groupKeyPrefix: input.groupKeyPrefix, sourceIds: input.sourceIds },
      "",
    );
    if (errors.length > 0 || text.length > 0 || !silence) throw alertsErrors.invalid([...errors, ...text]);
    const created = await this.#orm.em
      .fork()
      .transactional(async (em) => {
        const usage = await lockTeamSilenceUsage(em, teamId, JSON.stringify(silence.matchers));
        if (usage.silences >= SILENCE_LIMITS.maxPerTeam) {
          throw alertsErrors.invalid([
            { field: "teamId", message: `A team has at most ${SILENCE_LIMITS.maxPerTeam} silences.` },
          ]);
        }
        const total = usage.matcherBytes + usage.newMatcherBytes;
        if (total > SILENCE_LIMITS.matchersMaxBytesPerTeam) {
          throw alertsErrors.invalid([
            {
              field: "matchers",
              message: `A team's silences have at most ${SILENCE_LIMITS.matchersMaxBytesPerTeam} bytes of matchers in all; this one would make ${total}.`,
            },
          ]);
        }
        return em.create(SilenceSchema, {
          id: `sil_${randomUUID().replaceAll("-", "")}`,
          teamId,
          ...silence,
          createdAt: new Date(),
        });
      })
      .catch(onUniqueViolation("silences_team_name_key", () => alertsErrors.nameTaken("silence")));
    this.#live.invalidate(teamId);
    return asSilence(created);
  }

  async list(teamId: string): Promise<Silence[]> {
    const silences = await this.#orm.em
      .fork()
      .find(SilenceSchema, { teamId }, { orderBy: { createdAt: "asc", id: "asc" } });
    return silences.map(asSilence);
  }

  /** Deleting twice, or a silence of another team, is harmless and says so: false. */
  async delete(teamId: string, id: string): Promise<boolean> {
    const deleted = await this.#orm.em.fork().nativeDelete(SilenceSchema, { teamId, id });
    this.#live.invalidate(teamId);
    return deleted > 0;
  }

  /** The live silences of each team, compiled, oldest first (absent: none). */
  async forTeams(teamIds: readonly string[]): Promise<Map<string, SilenceMatcher[]>> {
    return this.#live.getMany(teamIds);
  }

  async #readLive(teamIds: string[]): Promise<Map<string, SilenceMatcher[]>> {
    const byTeam = new Map<string, SilenceMatcher[]>();
    for (const silence of await selectLiveSilences(this.#pool, teamIds)) {
      const matchers = byTeam.get(silence.teamId) ?? [];
      matchers.push(compileSilence(silence));
      byTeam.set(silence.teamId, matchers);
    }
    return byTeam;
  }
}
