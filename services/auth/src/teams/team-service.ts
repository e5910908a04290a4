import { randomUUID } from "node:crypto";
import { instantSentence, isWithinInstantLimits, TEAM_LIMITS } from "@pulsegate/contract/limits";
import { decodeCursor, encodeCursor, pageSize } from "@pulsegate/contract/page-cursor";
import { type EntityManager, LockMode, type Orm, onUniqueViolation } from "@pulsegate/db";
import { ApiKeySchema } from "../api-keys/api-key.entity.ts";
import { checkName } from "../check-name.ts";
import { authErrors } from "../errors.ts";
import {
  deriveHmacStates,
  generateSecret,
  graceEndsAt,
  graceSecondsOf,
  type Keyring,
  sealingContext,
  sealStates,
} from "../secrets/index.ts";
import { type Team, TeamSchema } from "./team.entity.ts";

export type CreateTeamInput = {
  name: string;
  subscriptionExpiresAt?: Date | undefined;
  alertQuotaMonthly?: number | undefined;
  heartbeatQuotaMonthly?: number | undefined;
};

export type UpdateTeamInput = {
  name?: string | undefined;
  subscriptionExpiresAt?: Date | null | undefined;
  alertQuotaMonthly?: number | undefined;
  heartbeatQuotaMonthly?: number | undefined;
};

/** Team names are unique (docs/decisions.md, "Names"): a create or rename that loses the race is a conflict. */
const nameTaken = onUniqueViolation("teams_name_key", () => authErrors.nameTaken("team"));

/** What this process keeps of a team's keys (TeamKeys): told of every change made here, at once. */
export type TeamKeysCache = { learn: (team: Team) => void; drop: (teamId: string) => void };

/** Teams and the lifecycle of their one webhook secret (DESIGN §3). */
export class TeamService {
  readonly #orm: Orm;
  readonly #keyring: Keyring;
  readonly #keys: TeamKeysCache | undefined;
  readonly #now: () => Date;

  /** `keys`: this process's cache of teams' keys; other replicas hear of changes from the database. */
  constructor(orm: Orm, keyring: Keyring, options: { keys?: TeamKeysCache; now?: () => Date } = {}) {
    this.#orm = orm;
    this.#keyring = keyring;
    this.#keys = options.keys;
    this.#now = options.now ?? (() => new Date());
  }

  async create(input: CreateTeamInput): Promise<{ team: Team; secret: string }> {
    const name = checkName(input.name, TEAM_LIMITS.nameMaxLength);
    checkExpiry(input.subscriptionExpiresAt);
    const alertQuota = checkQuota("alertQuotaMonthly", input.alertQuotaMonthly, TEAM_LIMITS.defaultAlertQuotaMonthly);
    const heartbeatQuota = checkQuota(
      "heartbeatQuotaMonthly",
      input.heartbeatQuotaMonthly,
      TEAM_LIMITS.defaultHeartbeatQuotaMonthly,
    );
    const em = this.#em();
    const id = `team_${randomUUID().replaceAll("-", "")}`;
    const { secret, fingerprint } = generateSecret();
    const now = this.#now();
    const team = em.create(TeamSchema, {
      id,
      name,
      subscriptionExpiresAt: input.subscriptionExpiresAt ?? null,
      alertQuotaMonthly: alertQuota,
      heartbeatQuotaMonthly: heartbeatQuota,
      createdAt: now,
      updatedAt: now,
      secretFingerprint: fingerprint,
      secretSealed: sealStates(deriveHmacStates(secret), this.#keyring, sealingContext(id, fingerprint)),
      secretRotatedAt: now,
      currentSecretLastUsedAt: null,
      previousSecretFingerprint: null,
      previousSecretSealed: null,
      previousSecretValidUntil: null,
      previousSecretLastUsedAt: null,
    });
    await em.flush().catch(nameTaken);
    this.#keys?.learn(team);
    return { team, secret };
  }

  async get(teamId: string): Promise<Team> {
    const team = await this.#em().findOne(TeamSchema, { id: teamId });
    if (!team) throw authErrors.teamNotFound();
    return team;
  }

  /** Every team, oldest first. */
  async list(limit: number, cursor: string): Promise<{ teams: Team[]; nextCursor: string }> {
    const size = pageSize(limit);
    const after = cursor ? decodeCursor(cursor) : null;
    if (cursor && !after) throw authErrors.invalidCursor();
    const teams = await this.#em().find(
      TeamSchema,
      after
        ? {
            $or: [{ createdAt: { $gt: new Date(after.at) } }, { createdAt: new Date(after.at), id: { $gt: after.id } }],
          }
        : {},
      { orderBy: { createdAt: "asc", id: "asc" }, limit: size + 1 },
    );
    const page = teams.slice(0, size);
    const last = page.at(-1);
    return { teams: page, nextCursor: teams.length > size && last ? encodeCursor(last.createdAt, last.id) : "" };
  }

  async update(teamId: string, input: UpdateTeamInput): Promise<Team> {
    const em = this.#em();
    const team = await em.findOne(TeamSchema, { id: teamId });
    if (!team) throw authErrors.teamNotFound();
    if (input.name !== undefined) team.name = checkName(input.name, TEAM_LIMITS.nameMaxLength);
    if (input.subscriptionExpiresAt !== undefined) {
      checkExpiry(input.subscriptionExpiresAt);
      team.subscriptionExpiresAt = input.subscriptionExpiresAt;
    }
    if (input.alertQuotaMonthly !== undefined) {
      team.alertQuotaMonthly = checkQuota("alertQuotaMonthly", input.alertQuotaMonthly, 0);
    }
    if (input.heartbeatQuotaMonthly !== undefined) {
      team.heartbeatQuotaMonthly = checkQuota("heartbeatQuotaMonthly", input.heartbeatQuotaMonthly, 0);
    }
    team.updatedAt = this.#now();
    await em.flush().catch(nameTaken);
    this.#keys?.learn(team);
    return team;
  }

  /**
   * Deletes the team, its secrets and its API keys at once, in one transaction; its row's trigger
   * tells every auth replica (migration 0007), so its signatures and keys stop verifying everywhere.
   * The audit log keeps its entries (docs/decisions.md, "Deleting"). The team as it was, and the
   * ids of its keys.
   */
  async delete(teamId: string): Promise<{ team: Team; apiKeyIds: string[] }> {
    const deleted = await this.#orm.em.fork().transactional(async (em) => {
      const team = await em.findOne(TeamSchema, { id: teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!team) throw authErrors.teamNotFound();
      const keys = await em.find(ApiKeySchema, { teamId }, { fields: ["id"] });
      await em.nativeDelete(ApiKeySchema, { teamId });
      await em.nativeDelete(TeamSchema, { id: teamId });
      return { team, apiKeyIds: keys.map((key) => key.id) };
    });
    this.#keys?.drop(teamId);
    return deleted;
  }

  /**
   * Writes a new secret; the current one becomes the previous one, valid for
   * `graceSeconds`. An older previous secret is dropped at once.
   */
  async rotate(
    teamId: string,
    graceSeconds: number | undefined,
  ): Promise<{ team: Team; secret: string; previousValidUntil: Date }> {
    const grace = graceSecondsOf(graceSeconds);
    const rotated = await this.#orm.em.fork().transactional(async (em) => {
      const team = await em.findOne(TeamSchema, { id: teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!team) throw authErrors.teamNotFound();
      const now = this.#now();
      const previousValidUntil = graceEndsAt(now, grace);
      const { secret, fingerprint } = generateSecret();
      team.previousSecretFingerprint = team.secretFingerprint;
      team.previousSecretSealed = team.secretSealed;
      team.previousSecretValidUntil = previousValidUntil;
      team.previousSecretLastUsedAt = team.currentSecretLastUsedAt;
      team.secretFingerprint = fingerprint;
      team.secretSealed = sealStates(deriveHmacStates(secret), this.#keyring, sealingContext(teamId, fingerprint));
      team.secretRotatedAt = now;
      team.currentSecretLastUsedAt = null;
      team.updatedAt = now;
      return { team, secret, previousValidUntil };
    });
    this.#keys?.learn(rotated.team);
    return rotated;
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}

function checkQuota(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0 || value > TEAM_LIMITS.quotaMax) {
    throw authErrors.invalidArgument(
      field,
      `${field} must be a whole number from 0 (unlimited) to ${TEAM_LIMITS.quotaMax}.`,
    );
  }
  return value;
}

/** An expiry must be an instant every layer holds (a gRPC caller can send any Timestamp); null or unset: never. */
function checkExpiry(value: Date | null | undefined): void {
  if (value && !isWithinInstantLimits(value)) {
    throw authErrors.invalidArgument("subscriptionExpiresAt", instantSentence("subscriptionExpiresAt"));
  }
}
