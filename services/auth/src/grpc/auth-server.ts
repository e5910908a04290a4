import { type ServiceBinding, unary } from "@pulsegate/grpc";
import { BATCH_LIMITS } from "@pulsegate/limits";
import type { Logger } from "@pulsegate/logger";
import { auth } from "@pulsegate/proto";
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
  const all: auth.AuthServiceServer = {
    ...apiKeyMethods(log, apiKeys, audit),
    resealSecrets: unary(log, async () => resealSecrets()),
    listTeams: unary(log, async (request) => {
      const page = await teams.list(request.limit, request.cursor);
      return { teams: page.teams.map(toProtoTeam), nextCursor: page.nextCursor };
    }),
    createTeam: unary(log, async (request) => {
      const { team, secret } = await teams.create({
        name: request.name,
        subscriptionExpiresAt: request.subscriptionExpiresAt,
        alertQuotaMonthly: request.alertQuotaMonthly,
        heartbeatQuotaMonthly: request.heartbeatQuotaMonthly,
      });
      keys.learn(team);
      return { team: toProtoTeam(team), webhookSecret: secret, standardWebhooksSecret: standardWebhooksSecret(secret) };
    }),
    getTeam: unary(log, async (request) => ({ team: toProtoTeam(await teams.get(request.teamId)) })),
    updateTeam: unary(log, async (request) => {
      const team = await teams.update(request.teamId, {
        name: request.name,
        subscriptionExpiresAt: request.clearSubscriptionExpiresAt ? null : request.subscriptionExpiresAt,
        alertQuotaMonthly: request.alertQuotaMonthly,
        heartbeatQuotaMonthly: request.heartbeatQuotaMonthly,
      });
      keys.learn(team);
      return { team: toProtoTeam(team) };
    }),
    rotateSecret: unary(log, async (request) => {
      const { team, secret, previousValidUntil } = await teams.rotate(request.teamId, request.graceSeconds);
      keys.learn(team);
      return {
        team: toProtoTeam(team),
        webhookSecret: secret,
        standardWebhooksSecret: standardWebhooksSecret(secret),
        previousValidUntil,
      };
    }),
    deleteTeam: unary(log, async (request) => {
      const { team, apiKeyIds } = await teams.delete(request.teamId);
      keys.drop(team.id);
      return { team: toProtoTeam(team), apiKeyIds };
    }),
    verifySignature: unary(log, async (request) => {
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
    }),
    getTeamAccess: unary(log, async (request) => {
      if (request.teamIds.length > BATCH_LIMITS.maxItemsPerCall) {
        throw authErrors.invalidArgument("teamIds", `At most ${BATCH_LIMITS.maxItemsPerCall} teams per call.`);
      }
      const results = await keys.access(request.teamIds);
      return { results: results.map((access) => ({ access: access ? toProtoAccess(access) : undefined })) };
    }),
    sign: unary(log, async (request) => {
      const signature = await keys.sign(request.teamId, request.payload);
      if (signature === null) throw authErrors.teamNotFound();
      return { signature };
    }),
  };
  // <unknown, never>: a handler that never answers fits every method's slot.
  const refuse = (error: () => Error) =>
    unary<unknown, never>(log, async () => {
      throw error();
    });
  const signingOnly = refuse(authErrors.signingListenerOnly);
  const implementation: auth.AuthServiceServer =
    listener === "main"
      ? { ...all, sign: refuse(authErrors.signNotAllowed) }
      : {
          ...(Object.fromEntries(
            Object.keys(all).map((name) => [name, signingOnly]),
          ) as unknown as auth.AuthServiceServer),
          sign: all.sign,
        };
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
