import { createHmac, randomBytes } from "node:crypto";
import { callUnary } from "@pulsegate/grpc";
import { auth } from "@pulsegate/proto";
import type { Peers } from "../../peers/connect-peers.ts";
import { createLookupCache } from "../../pipeline/lookup-cache.ts";
import type { ApiKeyIdentity } from "./actor.ts";

export type ApiKeyAuthenticator = {
  /** The live key a bearer token belongs to, or undefined. */
  authenticate: (token: string) => Promise<ApiKeyIdentity | undefined>;
  /** Forgets a key at once (revoked through this gateway). */
  forget: (keyId: string) => void;
  /** Forgets every key of a team at once (the team was deleted, through any replica). */
  forgetTeam: (teamId: string) => void;
};

/** Only tokens of this shape are sent to auth: anything else is refused without a call. */
const TOKEN_PATTERN = /^pgk_[A-Za-z0-9_-]{43}$/;

/**
 * Resolves team API keys through auth and keeps a verified key for `ttlMs` (seconds), so an
 * admin session does not cost an auth call per request. Entries are found by an HMAC of the
 * token under a key made at start-up: neither the token nor the hash auth stores is held here.
 * Unknown tokens are not kept (a new key works at once); a key revoked through another replica
 * keeps working here for at most `ttlMs`.
 */
export function createApiKeyAuthenticator(peers: Peers, options: { ttlMs: number }): ApiKeyAuthenticator {
  const cacheKeyOf = (() => {
    const secret = randomBytes(32);
    return (token: string) => createHmac("sha256", secret).update(token).digest("base64url");
  })();
  const tokensByCacheKey = new Map<string, string>();
  const cacheKeysById = new Map<string, string>();
  const cache = createLookupCache<ApiKeyIdentity | undefined>({
    ttlMs: options.ttlMs,
    negativeTtlMs: 0,
    maxEntries: 10_000,
    load: async (cacheKey) => {
      const token = tokensByCacheKey.get(cacheKey);
      tokensByCacheKey.delete(cacheKey);
      if (token === undefined) return undefined;
      const { apiKey } = await callUnary(peers.auth, "authenticateApiKey", { token });
      if (!apiKey) return undefined;
      const scope = apiKey.scope === auth.ApiKeyScope.API_KEY_SCOPE_WRITE ? "write" : "read";
      if (cacheKeysById.size >= 10_000) cacheKeysById.clear();
      cacheKeysById.set(apiKey.id, cacheKey);
      return { id: apiKey.id, teamId: apiKey.teamId, name: apiKey.name, scope };
    },
  });
  return {
    authenticate: async (token) => {
      if (!TOKEN_PATTERN.test(token)) return undefined;
      const cacheKey = cacheKeyOf(token);
      // Handed to the load only for the length of one call, then dropped.
      tokensByCacheKey.set(cacheKey, token);
      try {
        return await cache.get(cacheKey);
      } finally {
        tokensByCacheKey.delete(cacheKey);
      }
    },
    forget: (keyId) => {
      const cacheKey = cacheKeysById.get(keyId);
      if (cacheKey !== undefined) cache.invalidate(cacheKey);
      cacheKeysById.delete(keyId);
    },
    forgetTeam: (teamId) => cache.invalidateWhere((key) => key?.teamId === teamId),
  };
}
