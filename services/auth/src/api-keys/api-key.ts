import type { ApiKey } from "./api-key.entity.ts";
import type { ApiKeyScope } from "./api-key-scope.ts";

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

/** What the service shows of a stored key: everything but the token's hash. */
export function apiKeyView(key: ApiKey): ApiKeyView {
  const { tokenHash, ...view } = key;
  return { ...view, lastUsedAt: view.lastUsedAt ?? null, revokedAt: view.revokedAt ?? null };
}
