import { defineEntity, type InferEntity, p } from "@pulsegate/db";
import type { ApiKeyScope } from "./api-key-scope.ts";

/**
 * A team API key. The token is never stored: only its first 12 characters (to find candidates)
 * and its SHA-256 (compared in constant time).
 */
export const ApiKeySchema = defineEntity({
  name: "ApiKey",
  tableName: "api_keys",
  properties: {
    id: p.string().primary(),
    teamId: p.string(),
    name: p.string().length(200),
    scope: p.string().$type<ApiKeyScope>(),
    tokenPrefix: p.string().length(12),
    tokenHash: p.blob(),
    createdAt: p.datetime(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});

export type ApiKey = InferEntity<typeof ApiKeySchema>;
