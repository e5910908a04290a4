import { callUnary } from "@pulsegate/grpc";
import type { FastifyInstance } from "fastify";
import type { Peers } from "../../peers/connect-peers.ts";
import { present } from "./present.ts";
import { createTeamBody, rotateSecretBody, updateTeamBody } from "./schemas.ts";
import { teamJson } from "./to-json.ts";

type TeamParams = { teamId: string };
type CreateTeamBody = {
  name: string;
  subscriptionExpiresAt?: string;
  alertQuotaMonthly?: number;
  heartbeatQuotaMonthly?: number;
};
type UpdateTeamBody = Partial<Omit<CreateTeamBody, "subscriptionExpiresAt">> & {
  subscriptionExpiresAt?: string | null;
};

/** Teams and their webhook secret (auth). The secret appears only in create and rotate answers. */
export async function teamRoutes(app: FastifyInstance, { peers }: { peers: Peers }): Promise<void> {
  const { auth } = peers;

  app.post<{ Body: CreateTeamBody }>("/teams", { schema: { body: createTeamBody } }, async (request, reply) => {
    const body = request.body;
    const response = await callUnary(
      auth,
      auth.createTeam,
      {
        name: body.name,
        subscriptionExpiresAt: body.subscriptionExpiresAt ? new Date(body.subscriptionExpiresAt) : undefined,
        alertQuotaMonthly: body.alertQuotaMonthly,
        heartbeatQuotaMonthly: body.heartbeatQuotaMonthly,
      },
      peers.timeoutMs,
    );
    return reply
      .code(201)
      .send({ team: teamJson(present(response.team, "team")), webhookSecret: response.webhookSecret });
  });

  app.get<{ Params: TeamParams }>("/teams/:teamId", async (request) => {
    const response = await callUnary(auth, auth.getTeam, { teamId: request.params.teamId }, peers.timeoutMs);
    return { team: teamJson(present(response.team, "team")) };
  });

  app.patch<{ Params: TeamParams; Body: UpdateTeamBody }>(
    "/teams/:teamId",
    { schema: { body: updateTeamBody } },
    async (request) => {
      const body = request.body;
      const expiresAt = body.subscriptionExpiresAt;
      const response = await callUnary(
        auth,
        auth.updateTeam,
        {
          teamId: request.params.teamId,
          name: body.name,
          subscriptionExpiresAt: typeof expiresAt === "string" ? new Date(expiresAt) : undefined,
          clearSubscriptionExpiresAt: expiresAt === null,
          alertQuotaMonthly: body.alertQuotaMonthly,
          heartbeatQuotaMonthly: body.heartbeatQuotaMonthly,
        },
        peers.timeoutMs,
      );
      return { team: teamJson(present(response.team, "team")) };
    },
  );

  app.post<{ Params: TeamParams; Body: { graceSeconds?: number } }>(
    "/teams/:teamId/webhook-secret/rotate",
    { schema: { body: rotateSecretBody } },
    async (request) => {
      const response = await callUnary(
        auth,
        auth.rotateSecret,
        { teamId: request.params.teamId, graceSeconds: request.body.graceSeconds },
        peers.timeoutMs,
      );
      return {
        webhookSecret: response.webhookSecret,
        previousValidUntil: response.previousValidUntil ? response.previousValidUntil.toISOString() : null,
        team: teamJson(present(response.team, "team")),
      };
    },
  );
}
