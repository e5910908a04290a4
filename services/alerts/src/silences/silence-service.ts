import { randomUUID } from "node:crypto";
import type { Orm, PgPool } from "@pulsegate/db";
import { SILENCE_LIMITS } from "@pulsegate/limits";
import { findUnstorableText } from "@pulsegate/text";
import { alertsErrors } from "../errors.ts";
import { selectLiveSilences } from "./select-live-silences.ts";
import { type SilenceEntity, SilenceSchema } from "./silence.entity.ts";
import { checkSilence, type Silence, type SilenceInput } from "./silence.ts";

/** The entity types a nullable column as optional; a silence says null. */
const asSilence = (silence: SilenceEntity): Silence => ({ ...silence, recurrence: silence.recurrence ?? null });

/**
 * A team's maintenance windows and silences (issue 13). The trigger path asks
 * for the live silences of a batch's teams in one statement, kept `cacheMs`
 * per team (a change made through this replica applies at once, through
 * another within that time).
 */
export class SilenceService {
  readonly #orm: Orm;
  readonly #pool: PgPool;
  readonly #cacheMs: number;
  readonly #cache = new Map<string, { silences: Silence[]; expiresAt: number }>();

  /** `pool`: the trigger path's plain pg pool (live silences); the ORM for the rest. */
  constructor(orm: Orm, pool: PgPool, options: { cacheMs?: number } = {}) {
    this.#orm = orm;
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
    const em = this.#orm.em.fork();
    if ((await em.count(SilenceSchema, { teamId })) >= SILENCE_LIMITS.maxPerTeam) {
      throw alertsErrors.invalid([
        { field: "teamId", message: `A team has at most ${SILENCE_LIMITS.maxPerTeam} silences.` },
      ]);
    }
    const created = em.create(SilenceSchema, {
      id: `sil_${randomUUID().replaceAll("-", "")}`,
      teamId,
      ...silence,
      createdAt: new Date(),
    });
    await em.flush();
    this.#cache.delete(teamId);
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
    this.#cache.delete(teamId);
    return deleted > 0;
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
    const live = await selectLiveSilences(this.#pool, missing);
    for (const teamId of missing) out.set(teamId, []);
    for (const silence of live) out.get(silence.teamId)?.push(silence);
    if (this.#cacheMs > 0) {
      if (this.#cache.size > 50_000) this.#cache.clear();
      for (const teamId of missing) {
        this.#cache.set(teamId, { silences: out.get(teamId) ?? [], expiresAt: now + this.#cacheMs });
      }
    }
    return out;
  }
}
