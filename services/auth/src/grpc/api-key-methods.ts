import type { UnaryHandlers } from "@pulsegate/grpc";
import { auth } from "@pulsegate/proto";
import type { ApiKeyView } from "../api-keys/api-key.ts";
import type { ApiKeyScope } from "../api-keys/api-key-scope.ts";
import type { ApiKeyService } from "../api-keys/api-key-service.ts";
import { AUDIT_ACTOR_KINDS, type AuditActorKind, type AuditEntry } from "../audit/audit-entry.ts";
import type { AuditLog } from "../audit/audit-log.ts";
import { authErrors } from "../errors.ts";

type Methods = Pick<
  UnaryHandlers<auth.AuthServiceServer>,
  | "createApiKey"
  | "listApiKeys"
  | "getApiKey"
  | "revokeApiKey"
  | "authenticateApiKey"
  | "recordAuditEntries"
  | "listAuditEntries"
>;

const SCOPES: Record<ApiKeyScope, auth.ApiKeyScope> = {
  read: auth.ApiKeyScope.API_KEY_SCOPE_READ,
  write: auth.ApiKeyScope.API_KEY_SCOPE_WRITE,
};

const ACTOR_KINDS: Record<AuditActorKind, auth.AuditActorKind> = {
  admin: auth.AuditActorKind.AUDIT_ACTOR_KIND_ADMIN,
  api_key: auth.AuditActorKind.AUDIT_ACTOR_KIND_API_KEY,
  user: auth.AuditActorKind.AUDIT_ACTOR_KIND_USER,
};

function scopeName(scope: auth.ApiKeyScope): string {
  return (Object.keys(SCOPES) as ApiKeyScope[]).find((name) => SCOPES[name] === scope) ?? "";
}

function actorKindName(kind: auth.AuditActorKind): AuditActorKind | undefined {
  return AUDIT_ACTOR_KINDS.find((name) => ACTOR_KINDS[name] === kind);
}

export function apiKeyToProto(key: ApiKeyView): auth.ApiKey {
  return {
    id: key.id,
    teamId: key.teamId,
    name: key.name,
    scope: SCOPES[key.scope],
    tokenPrefix: key.tokenPrefix,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt ?? undefined,
    revokedAt: key.revokedAt ?? undefined,
  };
}

function auditEntryFromProto(entry: auth.AuditEntry): AuditEntry {
  const kind = actorKindName(entry.actorKind);
  if (!kind) throw authErrors.invalidArgument("actorKind", "actorKind must be admin, api_key or user.");
  let details: Record<string, unknown> = {};
  if (entry.detailsJson !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(entry.detailsJson);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw authErrors.invalidArgument("detailsJson", "detailsJson must be a JSON object.");
    }
    details = parsed as Record<string, unknown>;
  }
  return {
    id: entry.id,
    teamId: entry.teamId,
    at: entry.at ?? new Date(),
    actor: { kind, id: entry.actorId || null, name: entry.actorName || null, email: entry.actorEmail || null },
    action: entry.action,
    target: { kind: entry.targetKind, id: entry.targetId },
    details,
  };
}

function auditEntryToProto(entry: AuditEntry): auth.AuditEntry {
  return {
    id: entry.id,
    teamId: entry.teamId,
    at: entry.at,
    actorKind: ACTOR_KINDS[entry.actor.kind],
    actorId: entry.actor.id ?? "",
    actorName: entry.actor.name ?? "",
    actorEmail: entry.actor.email ?? "",
    action: entry.action,
    targetKind: entry.target.kind,
    targetId: entry.target.id,
    detailsJson: JSON.stringify(entry.details),
  };
}

/** The API key and audit log RPCs of auth.v1: translation only. */
export function apiKeyMethods(keys: ApiKeyService, audit: AuditLog): Methods {
  return {
    createApiKey: async (request) => {
      const { apiKey, token } = await keys.create(request.teamId, {
        name: request.name,
        scope: scopeName(request.scope),
      });
      return { apiKey: apiKeyToProto(apiKey), token };
    },
    listApiKeys: async (request) => ({
      apiKeys: (await keys.list(request.teamId)).map(apiKeyToProto),
    }),
    getApiKey: async (request) => ({ apiKey: apiKeyToProto(await keys.get(request.id)) }),
    revokeApiKey: async (request) => ({ apiKey: apiKeyToProto(await keys.revoke(request.id)) }),
    authenticateApiKey: async (request) => {
      const key = await keys.authenticate(request.token);
      return { apiKey: key ? apiKeyToProto(key) : undefined };
    },
    recordAuditEntries: async (request) => {
      await audit.record(request.entries.map(auditEntryFromProto));
      return {};
    },
    listAuditEntries: async (request) => {
      const page = await audit.list(request.teamId, request.limit, request.cursor);
      return { entries: page.entries.map(auditEntryToProto), nextCursor: page.nextCursor };
    },
  };
}
