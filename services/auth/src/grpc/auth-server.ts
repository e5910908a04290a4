import { type ServiceBinding, type UnaryHandlers, unaryService } from "@pulsegate/grpc";
import { auth } from "@pulsegate/proto";
import type { Logger } from "@pulsegate/runtime/logger";
import type { ApiKeyService } from "../api-keys/api-key-service.ts";
import type { AuditLog } from "../audit/audit-log.ts";
import { authErrors } from "../errors.ts";
import { standardWebhooksSecret } from "../secrets/index.ts";
import type { Team } from "../teams/team.entity.ts";
import type { SignatureFormat, TeamAccess, TeamKeys, VerifyResult } from "../teams/team-keys.ts";
import type { TeamService } from "../teams/team-service.ts";
import { apiKeyMethods } from "./api-key-methods.ts";

const OUTCOMES: Record<VerifyResult["outcome"], auth.VerifyOutcome> = {
  valid_current: auth.VerifyOutcome.VERIFY_OUTCOME_VALID_CURRENT,
  valid_previous: auth.VerifyOutcome.VERIFY_OUTCOME_VALID_PREVIOUS,
  invalid: auth.VerifyOutcome.VERIFY_OUTCOME_INVALID,
  team_not_found: auth.VerifyOutcome.VERIFY_OUTCOME_TEAM_NOT_FOUND,
};

/** UNSPECIFIED is what callers from before the field send: the interface's hex header. */
const formatOf = (format: auth.SignatureFormat): SignatureFormat =>
  format === auth.SignatureFormat.SIGNATURE_FORMAT_STANDARD_WEBHOOKS ? "standard-webhooks" : "hex";

/**
 * Which listener a binding serves. Sign is a signing oracle for any team, so it
 * has a port of its own that a NetworkPolicy opens to alerts only: "main"
 * serves every method but Sign, "signing" serves Sign only. Both serve the same
 * auth.v1.AuthService definition, so the contract does not change.
 */
export type AuthListener = "main" | "signing";

/** Translates auth.v1 messages to the domain and back; no rules live here. */
export function authServiceBinding(
  log: Logger,
  teams: TeamService,
  keys: TeamKeys,
  listener: AuthListener,
  apiKeys: ApiKeyService,
  audit: AuditLog,
  /** KEK rotation: re-seals every team's sealed states under the current KEK. */
  resealSecrets: () => Promise<{ resealed: number; alreadyCurrent: number; kekId: string }>,
): ServiceBinding {
  const all: UnaryHandlers<auth.AuthServiceServer> = {
    ...apiKeyMethods(apiKeys, audit),
    resealSecrets: async () => resealSecrets(),
    listTeams: async (request) => {
      const page = await teams.list(request.limit, request.cursor);
      return { teams: page.teams.map(toProtoTeam), nextCursor: page.nextCursor };
    },
    createTeam: async (request) => {
      const { team, secret } = await teams.create({
        name: request.name,
        subscriptionExpiresAt: request.subscriptionExpiresAt,
        alertQuotaMonthly: request.alertQuotaMonthly,
        heartbeatQuotaMonthly: request.heartbeatQuotaMonthly,
      });
      return { team: toProtoTeam(team), webhookSecret: secret, standardWebhooksSecret: standardWebhooksSecret(secret) };
    },
    getTeam: async (request) => ({ team: toProtoTeam(await teams.get(request.teamId)) }),
    updateTeam: async (request) => {
      const team = await teams.update(request.teamId, {
        name: request.name,
        subscriptionExpiresAt: request.clearSubscriptionExpiresAt ? null : request.subscriptionExpiresAt,
        alertQuotaMonthly: request.alertQuotaMonthly,
        heartbeatQuotaMonthly: request.heartbeatQuotaMonthly,
      });
      return { team: toProtoTeam(team) };
    },
    rotateSecret: async (request) => {
      const { team, secret, previousValidUntil } = await teams.rotate(request.teamId, request.graceSeconds);
      return {
        team: toProtoTeam(team),
        webhookSecret: secret,
        standardWebhooksSecret: standardWebhooksSecret(secret),
        previousValidUntil,
      };
    },
    deleteTeam: async (request) => {
      const { team, apiKeyIds } = await teams.delete(request.teamId);
      return { team: toProtoTeam(team), apiKeyIds };
    },
    verifySignature: async (request) => {
      const results = await keys.verify(
        request.items.map((item) => ({
          teamId: item.teamId,
          payload: item.payload,
          signature: item.signature,
          format: formatOf(item.format),
        })),
      );
      return {
        results: results.map((result) => ({
          outcome: OUTCOMES[result.outcome],
          access: "access" in result ? toProtoAccess(result.access) : undefined,
        })),
      };
    },
    getTeamAccess: async (request) => {
      const results = await keys.access(request.teamIds);
      return { results: results.map((access) => ({ access: access ? toProtoAccess(access) : undefined })) };
    },
    sign: async (request) => {
      const signature = await keys.sign(request.teamId, request.payload);
      if (signature === null) throw authErrors.teamNotFound();
      return { signature };
    },
  };
  // A handler that never answers fits every method's slot.
  const refuse = (error: () => Error) => async (): Promise<never> => {
    throw error();
  };
  const signingOnly = refuse(authErrors.signingListenerOnly);
  const implementation =
    listener === "main"
      ? unaryService<auth.AuthServiceServer>(
          log,
          { ...all, sign: refuse(authErrors.signNotAllowed) },
          { getTeamAccess: { field: "teamIds", noun: "teams" } },
        )
      : unaryService<auth.AuthServiceServer>(log, {
          ...(Object.fromEntries(
            Object.keys(all).map((name) => [name, signingOnly]),
          ) as unknown as UnaryHandlers<auth.AuthServiceServer>),
          sign: all.sign,
        });
  return { name: "auth.v1.AuthService", definition: auth.AuthServiceService, implementation };
}

function toProtoAccess(access: TeamAccess): auth.TeamAccess {
  return {
    subscriptionExpiresAt: access.subscriptionExpiresAt ?? undefined,
    subscriptionActive: access.subscriptionActive,
    alertQuotaMonthly: access.alertQuotaMonthly,
    heartbeatQuotaMonthly: access.heartbeatQuotaMonthly,
  };
}

function toProtoTeam(team: Team): auth.Team {
  return {
    id: team.id,
    name: team.name,
    subscriptionExpiresAt: team.subscriptionExpiresAt ?? undefined,
    alertQuotaMonthly: team.alertQuotaMonthly,
    heartbeatQuotaMonthly: team.heartbeatQuotaMonthly,
    createdAt: team.createdAt,
    secretFingerprint: team.secretFingerprint,
    secretRotatedAt: team.secretRotatedAt,
    previousSecretFingerprint: team.previousSecretFingerprint ?? "",
    previousSecretValidUntil: team.previousSecretValidUntil ?? undefined,
    previousSecretLastUsedAt: team.previousSecretLastUsedAt ?? undefined,
    currentSecretLastUsedAt: team.currentSecretLastUsedAt ?? undefined,
  };
}
