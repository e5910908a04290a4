/** A team API key as the service shows it: never the token, never its hash. */
export type ApiKeyView = {
  id: string;
  teamId: string;
  name: string;
  scope: ApiKeyScope;
  tokenPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export const API_KEY_SCOPES = ["read", "write"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export type ApiKeyRow = {
  id: string;
  team_id: string;
  name: string;
  scope: ApiKeyScope;
  token_prefix: string;
  token_hash: Uint8Array;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
};

const toDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

export function apiKeyFromRow(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    teamId: row.team_id,
    name: row.name,
    scope: row.scope,
    tokenPrefix: row.token_prefix,
    createdAt: toDate(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : toDate(row.last_used_at),
    revokedAt: row.revoked_at === null ? null : toDate(row.revoked_at),
  };
}
