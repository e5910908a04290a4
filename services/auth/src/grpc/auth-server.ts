import { type ServiceBinding, unary } from "@pulsegate/grpc";
import type { Logger } from "@pulsegate/logger";
import { auth } from "@pulsegate/proto";
import { authErrors } from "../errors.ts";
import type { Team } from "../teams/team.entity.ts";
import type { TeamKeys, VerifyResult } from "../teams/team-keys.ts";
import type { TeamService } from "../teams/team-service.ts";

const OUTCOMES: Record<VerifyResult["outcome"], auth.VerifyOutcome> = {
  valid_current: auth.VerifyOutcome.VERIFY_OUTCOME_VALID_CURRENT,
  valid_previous: auth.VerifyOutcome.VERIFY_OUTCOME_VALID_PREVIOUS,
  invalid: auth.VerifyOutcome.VERIFY_OUTCOME_INVALID,
  team_not_found: auth.VerifyOutcome.VERIFY_OUTCOME_TEAM_NOT_FOUND,
};

/** Translates auth.v1 messages to the domain and back; no rules live here. */
export function authServiceBinding(log: Logger, teams: TeamService, keys: TeamKeys): ServiceBinding {
  const implementation: auth.AuthServiceServer = {
    createTeam: unary(log, async (request) => {
      const { team, secret } = await teams.create({
        name: request.name,
        subscriptionExpiresAt: request.subscriptionExpiresAt,
        alertQuotaMonthly: request.alertQuotaMonthly,
        heartbeatQuotaMonthly: request.heartbeatQuotaMonthly,
      });
      return { team: toProtoTeam(team), webhookSecret: secret };
    }),
    getTeam: unary(log, async (request) => ({ team: toProtoTeam(await teams.get(request.teamId)) })),
    updateTeam: unary(log, async (request) => {
      const team = await teams.update(request.teamId, {
        name: request.name,
        subscriptionExpiresAt: request.clearSubscriptionExpiresAt ? null : request.subscriptionExpiresAt,
        alertQuotaMonthly: request.alertQuotaMonthly,
        heartbeatQuotaMonthly: request.heartbeatQuotaMonthly,
      });
      keys.forget(team.id);
      return { team: toProtoTeam(team) };
    }),
    rotateSecret: unary(log, async (request) => {
      const { team, secret, previousValidUntil } = await teams.rotate(request.teamId, request.graceSeconds);
      keys.forget(team.id);
      return { team: toProtoTeam(team), webhookSecret: secret, previousValidUntil };
    }),
    verifySignature: unary(log, async (request) => {
      const results = await keys.verify(
        request.items.map((item) => ({ teamId: item.teamId, payload: item.payload, signature: item.signature })),
      );
      return {
        results: results.map((result) => ({
          outcome: OUTCOMES[result.outcome],
          access:
            "access" in result
              ? {
                  subscriptionExpiresAt: result.access.subscriptionExpiresAt ?? undefined,
                  subscriptionActive: result.access.subscriptionActive,
                  alertQuotaMonthly: result.access.alertQuotaMonthly,
                  heartbeatQuotaMonthly: result.access.heartbeatQuotaMonthly,
                }
              : undefined,
        })),
      };
    }),
    sign: unary(log, async (request) => {
      const signature = await keys.sign(request.teamId, request.payload);
      if (signature === null) throw authErrors.teamNotFound();
      return { signature };
    }),
  };
  return { name: "auth.v1.AuthService", definition: auth.AuthServiceService, implementation };
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
