import { API_KEY_LIMITS } from "@pulsegate/contract/limits";
import { callUnary } from "@pulsegate/grpc";
import { auth } from "@pulsegate/proto";
import type { FastifyInstance } from "fastify";
import { wrapped } from "../../openapi/admin-components.ts";
import { nameTakenResponse } from "../../openapi/error-responses.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { iso } from "./absent-as-null.ts";
import { owned, TEAM } from "./access.ts";
import type { ApiKeyAuthenticator } from "./api-key-authenticator.ts";
import { createdEvent } from "./audit-events.ts";
import { type OwnedCollection, ownedGetRoute } from "./collection-routes.ts";
import type { RecordAudit } from "./record-audit.ts";
import { requirePresent } from "./require-present.ts";
import { noBody, refuseCursor } from "./schemas.ts";

/** An API key as shown to admins: never its token. */
export function apiKeyJson(key: auth.ApiKey) {
  return {
    id: key.id,
    teamId: key.teamId,
    name: key.name,
    scope: key.scope === auth.ApiKeyScope.API_KEY_SCOPE_WRITE ? "write" : "read",
    tokenPrefix: key.tokenPrefix,
    createdAt: iso(key.createdAt),
    lastUsedAt: iso(key.lastUsedAt),
    revokedAt: iso(key.revokedAt),
  };
}

const createApiKeyBody = {
  type: "object",
  additionalProperties: false,
  examples: [{ name: "grafana", scope: "read" }],
  required: ["name", "scope"],
  properties: {
    name: { type: "string", minLength: 1, maxLength: API_KEY_LIMITS.nameMaxLength },
    scope: { type: "string", enum: ["read", "write"], description: "read: GET only; write: everything of the team." },
  },
} as const;

const tags = ["api keys"];
const API_KEYS: OwnedCollection = { plural: "api-keys", kind: "api_key", key: "apiKey", ref: "ApiKey", tags };

/** Team API keys (auth): bearer tokens for the admin API, scoped to one team. */
export async function apiKeyRoutes(
  app: FastifyInstance,
  {
    peers,
    audit,
    apiKeys,
    onRevoked,
  }: {
    peers: Peers;
    audit: RecordAudit;
    apiKeys: ApiKeyAuthenticator;
    /** Told once a key is revoked (the dashboard ends its sessions). */
    onRevoked?: ((apiKeyId: string) => Promise<void>) | undefined;
  },
): Promise<void> {
  const client = peers.auth;

  app.post<{ Params: { teamId: string }; Body: { name: string; scope: "read" | "write" } }>(
    "/teams/:teamId/api-keys",
    {
      config: TEAM,
      schema: {
        tags,
        summary: "Create a team API key",
        description: "The token is in this answer only: it is stored as a SHA-256 and never shown again.",
        body: createApiKeyBody,
        response: {
          201: {
            description: "The key, and its token: `pgk_` and 43 base64url characters, shown this once.",
            type: "object",
            required: ["apiKey", "token"],
            properties: {
              apiKey: { $ref: "ApiKey#" },
              token: { type: "string", pattern: "^pgk_[A-Za-z0-9_-]{43}$" },
            },
          },
          409: nameTakenResponse,
        },
      },
    },
    async (request, reply) => {
      const { name, scope } = request.body;
      const response = await callUnary(client, "createApiKey", {
        teamId: request.params.teamId,
        name,
        scope: scope === "write" ? auth.ApiKeyScope.API_KEY_SCOPE_WRITE : auth.ApiKeyScope.API_KEY_SCOPE_READ,
      });
      const apiKey = requirePresent(response.apiKey, "apiKey");
      await audit(request, createdEvent("api_key", apiKey, { scope }));
      return reply.code(201).send({ apiKey: apiKeyJson(apiKey), token: response.token });
    },
  );

  app.get<{ Params: { teamId: string } }>(
    "/teams/:teamId/api-keys",
    {
      config: TEAM,
      schema: {
        tags,
        summary: "List a team's API keys, newest first (revoked ones included; never a token)",
        response: {
          200: {
            description: "Every key of the team.",
            type: "object",
            required: ["apiKeys", "nextCursor"],
            properties: { apiKeys: { type: "array", items: { $ref: "ApiKey#" } }, nextCursor: { type: "null" } },
          },
        },
      },
    },
    async (request) => {
      refuseCursor(request.query);
      const response = await callUnary(client, "listApiKeys", { teamId: request.params.teamId });
      return { apiKeys: response.apiKeys.map(apiKeyJson), nextCursor: null };
    },
  );

  ownedGetRoute(app, API_KEYS, {
    summary: "Get an API key",
    description: "The key.",
    get: async (id) => apiKeyJson(requirePresent((await callUnary(client, "getApiKey", { id })).apiKey, "apiKey")),
  });

  app.post<{ Params: { id: string } }>(
    "/api-keys/:id/revoke",
    {
      config: owned("api_key"),
      schema: {
        tags,
        summary: "Revoke an API key (idempotent)",
        description:
          "A revoked key answers 401 at once on this gateway, within seconds on others; its dashboard sessions end at once.",
        body: noBody,
        response: { 200: wrapped("apiKey", "ApiKey", "The key, revoked.") },
      },
    },
    async (request) => {
      const response = await callUnary(client, "revokeApiKey", { id: request.params.id });
      const apiKey = requirePresent(response.apiKey, "apiKey");
      apiKeys.forget(apiKey.id);
      await onRevoked?.(apiKey.id);
      await audit(request, {
        action: "api_key.revoke",
        target: { kind: "api_key", id: apiKey.id },
        details: { name: apiKey.name },
      });
      return { apiKey: apiKeyJson(apiKey) };
    },
  );
}
