import type { Orm } from "@pulsegate/db";
import type { Logger } from "@pulsegate/runtime/logger";
import { LRUCache } from "lru-cache";
import { LastUsedThrottle } from "../last-used-throttle.ts";
import {
  anySignatureMatches,
  hmacFromStates,
  inGrace,
  type Keyring,
  openStates,
  parseSignatureHeader,
  parseStandardSignatures,
  sealingContext,
  signatureMatches,
  type VerifierKey,
} from "../secrets/index.ts";
import { type Team, TeamSchema } from "./team.entity.ts";
import type { SealedTeamKeys, TeamDirectory } from "./team-directory.ts";

/**
 * How `signature` is written: the interface's hex header, or a Standard Webhooks webhook-signature
 * list ("v1,<base64>" entries, any one of which may match). The key is the team's secret either way.
 */
export type SignatureFormat = "hex" | "standard-webhooks";

/** `format` absent: hex. */
export type VerifyItem = { teamId: string; payload: Uint8Array; signature: string; format?: SignatureFormat };

export type TeamAccess = {
  subscriptionExpiresAt: Date | null;
  subscriptionActive: boolean;
  alertQuotaMonthly: number;
  heartbeatQuotaMonthly: number;
};

export type VerifyResult =
  | { outcome: "valid_current" | "valid_previous" | "invalid"; access: TeamAccess }
  | { outcome: "team_not_found" };

type Keys = {
  id: string;
  subscriptionExpiresAt: Date | null;
  alertQuotaMonthly: number;
  heartbeatQuotaMonthly: number;
  current: { key: VerifierKey; fingerprint: string };
  previous: { key: VerifierKey; fingerprint: string; validUntil: Date } | null;
  loadedAt: number;
};

/** After a mismatch, keys older than this are reloaded once, in case another replica rotated. */
const RELOAD_ON_MISMATCH_AFTER_MS = 1_000;
const MAX_CACHED_TEAMS = 50_000;
/**
 * While the database cannot be read, keys already in memory keep verifying
 * for this long (pings are accepted through a database outage, DESIGN §5),
 * and the database is asked again at most once per retry interval.
 */
const STALE_KEYS_MAX_MS = 60 * 60_000;
const DATABASE_RETRY_MS = 1_000;

/**
 * Verifies signatures against a team's current secret and, inside the grace
 * window, the previous one, and signs outbound payloads with the current one.
 * Opened keys are cached briefly per team.
 */
export class TeamKeys {
  readonly #orm: Orm;
  readonly #keyring: Keyring;
  readonly #log: Logger;
  readonly #cacheMs: number;
  readonly #now: () => number;
  /** Opened keys by team; past MAX_CACHED_TEAMS the least recently used go (cheap to open again). */
  readonly #cache = new LRUCache<string, Keys>({ max: MAX_CACHED_TEAMS });
  readonly #lastUsed = new LastUsedThrottle();
  readonly #directory: TeamDirectory;
  #databaseRetryAt = 0;
  /** Counts forget calls: a load that a change overtook must not be kept as fresh. */
  #forgotten = 0;

  constructor(
    orm: Orm,
    keyring: Keyring,
    log: Logger,
    cacheMs: number,
    directory: TeamDirectory,
    now: () => number = Date.now,
  ) {
    this.#orm = orm;
    this.#keyring = keyring;
    this.#log = log;
    this.#cacheMs = cacheMs;
    this.#directory = directory;
    this.#now = now;
  }

  async verify(items: VerifyItem[]): Promise<VerifyResult[]> {
    const now = this.#now();
    const stale = [...new Set(items.map((item) => item.teamId))].filter((id) => {
      const cached = this.#cache.get(id);
      return !cached || now - cached.loadedAt > this.#cacheMs;
    });
    if (stale.length > 0) await this.#load(stale);

    const results: VerifyResult[] = [];
    for (const item of items) {
      let keys = this.#cache.get(item.teamId);
      if (!keys) {
        results.push({ outcome: "team_not_found" });
        continue;
      }
      let outcome = this.#match(keys, item);
      if (outcome === "invalid" && this.#now() - keys.loadedAt > RELOAD_ON_MISMATCH_AFTER_MS) {
        await this.#load([item.teamId]);
        keys = this.#cache.get(item.teamId);
        if (!keys) {
          results.push({ outcome: "team_not_found" });
          continue;
        }
        outcome = this.#match(keys, item);
      }
      if (outcome !== "invalid") this.#recordUse(keys, outcome);
      results.push({ outcome, access: accessOf(keys, this.#now()) });
    }
    return results;
  }

  /**
   * The access of each team (null for no such team), as verify answers it, for requests authorised
   * otherwise (an Alertmanager webhook's bearer token): from the same keys, so from memory while
   * the database is away.
   */
  async access(teamIds: string[]): Promise<(TeamAccess | null)[]> {
    const now = this.#now();
    const stale = [...new Set(teamIds)].filter((id) => {
      const cached = this.#cache.get(id);
      return !cached || now - cached.loadedAt > this.#cacheMs;
    });
    if (stale.length > 0) await this.#load(stale);
    return teamIds.map((id) => {
      const keys = this.#cache.get(id);
      return keys ? accessOf(keys, this.#now()) : null;
    });
  }

  /** Lowercase hex HMAC-SHA256 of `payload` under the team's current secret, or null for no team. */
  async sign(teamId: string, payload: Uint8Array): Promise<string | null> {
    const cached = this.#cache.get(teamId);
    if (!cached || this.#now() - cached.loadedAt > this.#cacheMs) await this.#load([teamId]);
    const keys = this.#cache.get(teamId);
    return keys ? Buffer.from(hmacFromStates(keys.current.key, payload)).toString("hex") : null;
  }

  /** Forgets a team's opened keys (it changed, here or through another replica): the next use reads it again. */
  forget(teamId: string): void {
    this.#cache.delete(teamId);
    this.#forgotten++;
  }

  /** Forgets every team's opened keys (changes may have gone unannounced). */
  forgetAll(): void {
    this.#cache.clear();
    this.#forgotten++;
  }

  /** A team this process just created, changed or rotated: the directory takes it, opened keys are dropped. */
  learn(team: Team): void {
    this.forget(team.id);
    this.#directory.put(team);
  }

  /** A team this process just deleted: neither its opened keys nor its sealed ones are kept. */
  drop(teamId: string): void {
    this.forget(teamId);
    this.#directory.remove(teamId);
  }

  #match(keys: Keys, item: VerifyItem): "valid_current" | "valid_previous" | "invalid" {
    const matches = matcherOf(item);
    if (!matches) return "invalid";
    if (matches(keys.current.key)) return "valid_current";
    if (keys.previous && inGrace(keys.previous.validUntil, this.#now()) && matches(keys.previous.key)) {
      return "valid_previous";
    }
    return "invalid";
  }

  async #load(teamIds: string[]): Promise<void> {
    const now = this.#now();
    const inMemory = (id: string) => {
      const cached = this.#cache.get(id);
      return (
        (cached !== undefined && now - cached.loadedAt <= STALE_KEYS_MAX_MS) || this.#directory.get(id) !== undefined
      );
    };
    const usable = teamIds.every(inMemory);
    if (usable && now < this.#databaseRetryAt) {
      this.#fromDirectory(teamIds, now);
      return;
    }
    let teams: Team[];
    const forgottenBefore = this.#forgotten;
    try {
      const em = this.#orm.em.fork();
      teams = await em.find(TeamSchema, { id: { $in: teamIds } });
    } catch (error) {
      // A database outage must not stop verification: keys already opened, else the
      // directory's sealed keys of every team (loaded at start, kept fresh), still verify.
      this.#databaseRetryAt = now + DATABASE_RETRY_MS;
      if (!usable) throw error;
      this.#log.warn({ err: error, teams: teamIds.length }, "team keys could not be reloaded; using keys in memory");
      this.#fromDirectory(teamIds, now);
      return;
    }
    this.#databaseRetryAt = 0;
    // A change announced while the rows were read may not be in them: they serve this call, are
    // marked as loaded long ago so the next one reads again, and the directory keeps its reload.
    const overtaken = this.#forgotten !== forgottenBefore;
    const loadedAt = overtaken ? this.#now() - this.#cacheMs - 1 : this.#now();
    for (const id of teamIds) this.#cache.delete(id);
    for (const team of teams) {
      if (!overtaken) this.#directory.put(team);
      this.#cache.set(team.id, this.#open(team, loadedAt));
    }
  }

  /** Opens, from the directory, the keys of teams that have none usable in the cache. */
  #fromDirectory(teamIds: string[], now: number): void {
    for (const id of teamIds) {
      const cached = this.#cache.get(id);
      if (cached !== undefined && now - cached.loadedAt <= STALE_KEYS_MAX_MS) continue;
      const sealed = this.#directory.get(id);
      // Marked as loaded long ago: the database is asked again as soon as it answers.
      if (sealed) this.#cache.set(id, this.#open(sealed, now - this.#cacheMs - 1));
    }
  }

  #open(team: SealedTeamKeys, loadedAt: number): Keys {
    const previous =
      team.previousSecretSealed && team.previousSecretFingerprint && team.previousSecretValidUntil
        ? {
            key: openStates(
              Buffer.from(team.previousSecretSealed),
              this.#keyring,
              sealingContext(team.id, team.previousSecretFingerprint),
            ),
            fingerprint: team.previousSecretFingerprint,
            validUntil: team.previousSecretValidUntil,
          }
        : null;
    return {
      id: team.id,
      subscriptionExpiresAt: team.subscriptionExpiresAt ?? null,
      alertQuotaMonthly: team.alertQuotaMonthly,
      heartbeatQuotaMonthly: team.heartbeatQuotaMonthly,
      current: {
        key: openStates(Buffer.from(team.secretSealed), this.#keyring, sealingContext(team.id, team.secretFingerprint)),
        fingerprint: team.secretFingerprint,
      },
      previous,
      loadedAt,
    };
  }

  /** Writes "last used" back at most once a minute per team and secret, off the request path. */
  #recordUse(keys: Keys, outcome: "valid_current" | "valid_previous"): void {
    const slot = outcome === "valid_current" ? keys.current : keys.previous;
    if (!slot) return;
    const marker = `${keys.id}:${slot.fingerprint}`;
    const now = this.#now();
    if (!this.#lastUsed.due(marker, now)) return;
    // Only while that secret is still the one in that slot; updatedAt stays (it is the directory's change marker).
    const at = new Date(now);
    const em = this.#orm.em.fork();
    const written =
      outcome === "valid_current"
        ? em.nativeUpdate(
            TeamSchema,
            { id: keys.id, secretFingerprint: slot.fingerprint },
            { currentSecretLastUsedAt: at },
          )
        : em.nativeUpdate(
            TeamSchema,
            { id: keys.id, previousSecretFingerprint: slot.fingerprint },
            { previousSecretLastUsedAt: at },
          );
    written.catch((error: unknown) => this.#log.warn({ err: error }, "could not record secret use"));
  }
}

/** Whether a key made the item's signature (any one of a Standard Webhooks list); null: no signature to check. */
function matcherOf(item: VerifyItem): ((key: VerifierKey) => boolean) | null {
  if (item.format === "standard-webhooks") {
    const signatures = parseStandardSignatures(item.signature);
    return signatures && signatures.length > 0 ? (key) => anySignatureMatches(key, item.payload, signatures) : null;
  }
  const expected = parseSignatureHeader(item.signature);
  return expected ? (key) => signatureMatches(key, item.payload, expected) : null;
}

function accessOf(keys: Keys, now: number): TeamAccess {
  return {
    subscriptionExpiresAt: keys.subscriptionExpiresAt,
    subscriptionActive: keys.subscriptionExpiresAt === null || keys.subscriptionExpiresAt.getTime() > now,
    alertQuotaMonthly: keys.alertQuotaMonthly,
    heartbeatQuotaMonthly: keys.heartbeatQuotaMonthly,
  };
}
