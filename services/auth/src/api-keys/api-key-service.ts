import { randomUUID } from "node:crypto";
import type { EntityManager, Orm } from "@pulsegate/db";
import { TEAM_LIMITS } from "@pulsegate/limits";
import type { Logger } from "@pulsegate/logger";
import { authErrors } from "../errors.ts";
import { API_KEY_SCOPES, type ApiKeyRow, type ApiKeyScope, type ApiKeyView, apiKeyFromRow } from "./api-key.ts";
import { issueToken, prefixOf, tokenMatches } from "./api-key-token.ts";

/** How often "last used" is written back per key: authenticating must not write per request. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;
/** A bound on the memory of the write-back throttle; forgetting only costs an extra write. */
const MAX_TRACKED_KEYS = 100_000;

/** Team API keys: created with a token shown once, listed, revoked, and authenticated by token. */
export class ApiKeyService {
  readonly #orm: Orm;
  readonly #log: Logger;
  readonly #now: () => Date;
  readonly #lastUsedWrites = new Map<string, number>();

  constructor(orm: Orm, log: Logger, now: () => Date = () => new Date()) {
    this.#orm = orm;
    this.#log = log;
    this.#now = now;
  }

  async create(teamId: string, input: { name: string; scope: string }): Promise<{ apiKey: ApiKeyView; token: string }> {
    const name = checkName(input.name);
    if (!(API_KEY_SCOPES as readonly string[]).includes(input.scope)) {
      throw authErrors.invalidArgument("scope", "scope must be read or write.");
    }
    const em = this.#em();
    const [team] = await em.execute<{ id: string }[]>("SELECT id FROM auth.teams WHERE id = ?", [teamId]);
    if (!team) throw authErrors.teamNotFound();
    const { token, prefix, hash } = issueToken();
    const [row] = await em.execute<ApiKeyRow[]>(
      `INSERT INTO auth.api_keys (id, team_id, name, scope, token_prefix, token_hash, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      [`key_${randomUUID().replaceAll("-", "")}`, teamId, name, input.scope as ApiKeyScope, prefix, hash, this.#now()],
    );
    return { apiKey: apiKeyFromRow(row as ApiKeyRow), token };
  }

  /** Every key of a team, newest first, revoked ones included. */
  async list(teamId: string): Promise<ApiKeyView[]> {
    const em = this.#em();
    const [team] = await em.execute<{ id: string }[]>("SELECT id FROM auth.teams WHERE id = ?", [teamId]);
    if (!team) throw authErrors.teamNotFound();
    const rows = await em.execute<ApiKeyRow[]>(
      "SELECT * FROM auth.api_keys WHERE team_id = ? ORDER BY created_at DESC, id DESC",
      [teamId],
    );
    return rows.map(apiKeyFromRow);
  }

  async get(id: string): Promise<ApiKeyView> {
    const [row] = await this.#em().execute<ApiKeyRow[]>("SELECT * FROM auth.api_keys WHERE id = ?", [id]);
    if (!row) throw authErrors.apiKeyNotFound();
    return apiKeyFromRow(row);
  }

  /** Idempotent: revoking a revoked key keeps its first revocation time. */
  async revoke(id: string): Promise<ApiKeyView> {
    const [row] = await this.#em().execute<ApiKeyRow[]>(
      "UPDATE auth.api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING *",
      [this.#now(), id],
    );
    if (!row) throw authErrors.apiKeyNotFound();
    return apiKeyFromRow(row);
  }

  /**
   * The live key a token belongs to, or null. Candidates are found by the token's shown prefix
   * and compared by hash in constant time; the use is written back at most once a minute per key,
   * off the caller's path.
   */
  async authenticate(token: string): Promise<ApiKeyView | null> {
    const prefix = prefixOf(token);
    if (prefix === null) return null;
    const rows = await this.#em().execute<ApiKeyRow[]>(
      "SELECT * FROM auth.api_keys WHERE token_prefix = ? AND revoked_at IS NULL",
      [prefix],
    );
    const row = rows.find((candidate) => tokenMatches(token, Buffer.from(candidate.token_hash)));
    if (!row) return null;
    this.#recordUse(row.id);
    return apiKeyFromRow(row);
  }

  #recordUse(id: string): void {
    const now = this.#now();
    if (now.getTime() - (this.#lastUsedWrites.get(id) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
    if (this.#lastUsedWrites.size >= MAX_TRACKED_KEYS) this.#lastUsedWrites.clear();
    this.#lastUsedWrites.set(id, now.getTime());
    this.#em()
      .execute("UPDATE auth.api_keys SET last_used_at = ? WHERE id = ? AND revoked_at IS NULL", [now, id])
      .catch((error: unknown) => this.#log.warn({ err: error }, "could not record API key use"));
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}

function checkName(value: string): string {
  const name = value.trim();
  if (name.length === 0) throw authErrors.invalidArgument("name", "name is required.");
  if ([...name].length > TEAM_LIMITS.nameMaxLength) {
    throw authErrors.invalidArgument("name", `name must be at most ${TEAM_LIMITS.nameMaxLength} characters.`);
  }
  return name;
}
