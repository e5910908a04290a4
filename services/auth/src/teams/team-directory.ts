import type { Orm } from "@pulsegate/db";
import { type Periodic, periodic } from "@pulsegate/runtime/lifecycle";
import type { Logger } from "@pulsegate/runtime/logger";
import {
  type Millis,
  selectTeamKeysByChange,
  selectTeamKeysById,
  selectTeamKeysOf,
  type TeamKeysRow,
} from "./select-team-keys.ts";

/**
 * What verifying a team's signatures needs, as stored: the access fields and
 * the sealed HMAC states with the fingerprints they are bound to. Nothing in
 * it is usable without the KEK, which never leaves auth either.
 */
export type SealedTeamKeys = {
  id: string;
  subscriptionExpiresAt?: Date | null | undefined;
  alertQuotaMonthly: number;
  heartbeatQuotaMonthly: number;
  secretFingerprint: string;
  secretSealed: Uint8Array;
  previousSecretFingerprint?: string | null | undefined;
  previousSecretSealed?: Uint8Array | null | undefined;
  previousSecretValidUntil?: Date | null | undefined;
};

function dateOf(value: Millis): Date;
function dateOf(value: Millis | null): Date | null;
function dateOf(value: Millis | null): Date | null {
  return value === null ? null : new Date(Number(value));
}

const PAGE = 5_000;
/** Re-read what changed this long before the newest change seen: a transaction may commit late. */
const OVERLAP_MS = 60_000;

/**
 * Every team's sealed keys, held by auth so that signatures still verify when
 * PostgreSQL is away (DESIGN §5: pings are spooled, not refused):
 * loaded in full at start, refreshed by `updated_at` every `refreshMs`, and
 * replaced at once when this process creates, changes or rotates a team, or
 * when any replica's change is announced (team-changes.ts). Only
 * auth holds it; the gateway never sees key material. About 0.6 KB a team
 * (docs/secrets.md: 100,000 teams measured).
 */
export class TeamDirectory {
  readonly #orm: Orm;
  readonly #log: Logger;
  readonly #teams = new Map<string, StoredTeam>();
  #newestChange = 0;
  #refresher: Periodic | undefined;

  constructor(orm: Orm, log: Logger) {
    this.#orm = orm;
    this.#log = log;
  }

  get size(): number {
    return this.#teams.size;
  }

  get(teamId: string): SealedTeamKeys | undefined {
    const stored = this.#teams.get(teamId);
    return stored ? unpack(stored) : undefined;
  }

  /** A team as just read or written by this process. */
  put(team: SealedTeamKeys & { updatedAt?: Date }): void {
    this.#teams.set(team.id, pack(team));
  }

  /** A team this process just deleted. */
  remove(teamId: string): void {
    this.#teams.delete(teamId);
  }

  /** Every team, in pages by id. */
  async loadAll(): Promise<number> {
    let after = "";
    for (;;) {
      const rows = await selectTeamKeysById(this.#orm.em, after, PAGE);
      this.#take(rows);
      const last = rows.at(-1);
      if (!last || rows.length < PAGE) break;
      after = last.id;
    }
    return this.#teams.size;
  }

  /** One team as stored now (a change announced by another replica); gone when it no longer exists. */
  async reload(teamId: string): Promise<void> {
    const rows = await selectTeamKeysOf(this.#orm.em, teamId);
    if (rows.length === 0) this.#teams.delete(teamId);
    else this.#take(rows);
  }

  /** Teams changed since the newest change seen (by any replica), with some overlap. */
  async refresh(): Promise<number> {
    // Keyset over (updated_at, id), the time as exact text (select-team-keys.ts).
    let after: { at: string; id: string } = { at: new Date(this.#newestChange - OVERLAP_MS).toISOString(), id: "" };
    let seen = 0;
    for (;;) {
      const rows = await selectTeamKeysByChange(this.#orm.em, after, PAGE);
      this.#take(rows);
      seen += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < PAGE) return seen;
      after = { at: last.updated_key, id: last.id };
    }
  }

  /** Refreshes every `refreshMs` (one at a time; a failure waits for the next turn). */
  start(refreshMs: number): void {
    this.#refresher ??= periodic({
      name: "team directory refresh",
      intervalMs: refreshMs,
      log: this.#log,
      task: async () => {
        try {
          await this.refresh();
        } catch (error) {
          this.#log.warn({ err: error }, "team directory could not be refreshed");
        }
        return false;
      },
    });
    this.#refresher.start();
  }

  async stop(): Promise<void> {
    await this.#refresher?.stop();
    this.#refresher = undefined;
  }

  #take(rows: TeamKeysRow[]): void {
    for (const row of rows) {
      this.#teams.set(
        row.id,
        pack({
          id: row.id,
          subscriptionExpiresAt: dateOf(row.subscription_expires_at),
          alertQuotaMonthly: row.alert_quota_monthly,
          heartbeatQuotaMonthly: row.heartbeat_quota_monthly,
          secretFingerprint: row.secret_fingerprint,
          secretSealed: row.secret_sealed,
          previousSecretFingerprint: row.previous_secret_fingerprint,
          previousSecretSealed: row.previous_secret_sealed,
          previousSecretValidUntil: dateOf(row.previous_secret_valid_until),
        }),
      );
      this.#newestChange = Math.max(this.#newestChange, dateOf(row.updated_at).getTime());
    }
  }
}

/**
 * One team as held: sealed blobs as one-byte strings and times as numbers,
 * which V8 keeps smaller than a Buffer (with its ArrayBuffer) or a Date each.
 * Own copies of exactly the fields needed: an ORM entity would drag its whole
 * row and context along.
 */
type StoredTeam = {
  id: string;
  /** Epoch ms, -1 for none. */
  subscriptionExpiresAt: number;
  alertQuotaMonthly: number;
  heartbeatQuotaMonthly: number;
  secretFingerprint: string;
  secretSealed: string;
  previousSecretFingerprint: string | null;
  previousSecretSealed: string | null;
  /** Epoch ms, -1 for none. */
  previousSecretValidUntil: number;
};

function pack(team: SealedTeamKeys): StoredTeam {
  const previous = team.previousSecretSealed && team.previousSecretFingerprint && team.previousSecretValidUntil;
  return {
    id: team.id,
    subscriptionExpiresAt: team.subscriptionExpiresAt ? team.subscriptionExpiresAt.getTime() : -1,
    alertQuotaMonthly: team.alertQuotaMonthly,
    heartbeatQuotaMonthly: team.heartbeatQuotaMonthly,
    secretFingerprint: team.secretFingerprint,
    secretSealed: latin1(team.secretSealed),
    previousSecretFingerprint: previous ? (team.previousSecretFingerprint as string) : null,
    previousSecretSealed: previous ? latin1(team.previousSecretSealed as Uint8Array) : null,
    previousSecretValidUntil: previous ? (team.previousSecretValidUntil as Date).getTime() : -1,
  };
}

function unpack(team: StoredTeam): SealedTeamKeys {
  return {
    id: team.id,
    subscriptionExpiresAt: team.subscriptionExpiresAt < 0 ? null : new Date(team.subscriptionExpiresAt),
    alertQuotaMonthly: team.alertQuotaMonthly,
    heartbeatQuotaMonthly: team.heartbeatQuotaMonthly,
    secretFingerprint: team.secretFingerprint,
    secretSealed: Buffer.from(team.secretSealed, "latin1"),
    previousSecretFingerprint: team.previousSecretFingerprint,
    previousSecretSealed: team.previousSecretSealed === null ? null : Buffer.from(team.previousSecretSealed, "latin1"),
    previousSecretValidUntil: team.previousSecretValidUntil < 0 ? null : new Date(team.previousSecretValidUntil),
  };
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}
