import { randomUUID } from "node:crypto";
import { API_KEY_LIMITS } from "@pulsegate/contract/limits";
import { type EntityManager, type Orm, onUniqueViolation } from "@pulsegate/db";
import type { Logger } from "@pulsegate/runtime/logger";
import { checkName } from "../check-name.ts";
import { authErrors } from "../errors.ts";
import { LastUsedThrottle } from "../last-used-throttle.ts";
import { requireTeamExists } from "../teams/team-exists.ts";
import { ApiKeySchema } from "./api-key.entity.ts";
import { type ApiKeyView, apiKeyView } from "./api-key.ts";
import { API_KEY_SCOPES, type ApiKeyScope } from "./api-key-scope.ts";
import { issueToken, prefixOf, tokenMatches } from "./api-key-token.ts";

/** Team API keys: created with a token shown once, listed, revoked, and authenticated by token. */
export class ApiKeyService {
  readonly #orm: Orm;
  readonly #log: Logger;
  readonly #now: () => Date;
  readonly #lastUsed = new LastUsedThrottle();

  constructor(orm: Orm, log: Logger, now: () => Date = () => new Date()) {
    this.#orm = orm;
    this.#log = log;
    this.#now = now;
  }

  async create(teamId: string, input: { name: string; scope: string }): Promise<{ apiKey: ApiKeyView; token: string }> {
    const name = checkName(input.name, API_KEY_LIMITS.nameMaxLength);
    if (!(API_KEY_SCOPES as readonly string[]).includes(input.scope)) {
      throw authErrors.invalidArgument("scope", "scope must be read or write.");
    }
    const em = this.#em();
    await requireTeamExists(em, teamId);
    const { token, prefix, hash } = issueToken();
    const key = em.create(ApiKeySchema, {
      id: `key_${randomUUID().replaceAll("-", "")}`,
      teamId,
      name,
      scope: input.scope as ApiKeyScope,
      tokenPrefix: prefix,
      tokenHash: hash,
      createdAt: this.#now(),
      lastUsedAt: null,
      revokedAt: null,
    });
    // The names of a team's live keys are unique (docs/decisions.md, "Names").
    await em.flush().catch(onUniqueViolation("api_keys_team_name_key", () => authErrors.nameTaken("API key")));
    return { apiKey: apiKeyView(key), token };
  }

  /** Every key of a team, newest first, revoked ones included. */
  async list(teamId: string): Promise<ApiKeyView[]> {
    const em = this.#em();
    await requireTeamExists(em, teamId);
    const keys = await em.find(ApiKeySchema, { teamId }, { orderBy: { createdAt: "desc", id: "desc" } });
    return keys.map(apiKeyView);
  }

  async get(id: string): Promise<ApiKeyView> {
    const key = await this.#em().findOne(ApiKeySchema, { id });
    if (!key) throw authErrors.apiKeyNotFound();
    return apiKeyView(key);
  }

  /** Idempotent: revoking a revoked key keeps its first revocation time. */
  async revoke(id: string): Promise<ApiKeyView> {
    const em = this.#em();
    // One conditional UPDATE: of two revocations at once, the first one's time stays.
    await em.nativeUpdate(ApiKeySchema, { id, revokedAt: null }, { revokedAt: this.#now() });
    return this.get(id);
  }

  /**
   * The live key a token belongs to, or null. Candidates are found by the token's shown prefix
   * and compared by hash in constant time; the use is written back at most once a minute per key,
   * off the caller's path.
   */
  async authenticate(token: string): Promise<ApiKeyView | null> {
    const prefix = prefixOf(token);
    if (prefix === null) return null;
    const candidates = await this.#em().find(ApiKeySchema, { tokenPrefix: prefix, revokedAt: null });
    const key = candidates.find((candidate) => tokenMatches(token, Buffer.from(candidate.tokenHash)));
    if (!key) return null;
    this.#recordUse(key.id);
    return apiKeyView(key);
  }

  #recordUse(id: string): void {
    const now = this.#now();
    if (!this.#lastUsed.due(id, now.getTime())) return;
    this.#em()
      .nativeUpdate(ApiKeySchema, { id, revokedAt: null }, { lastUsedAt: now })
      .catch((error: unknown) => this.#log.warn({ err: error }, "could not record API key use"));
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}
