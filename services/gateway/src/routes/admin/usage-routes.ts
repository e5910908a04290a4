import { callUnary } from "@pulsegate/grpc";
import type { FastifyInstance } from "fastify";
import type { Peers } from "../../peers/connect-peers.ts";
import { TEAM } from "./access.ts";
import { requirePresent } from "./require-present.ts";

const counter = {
  type: "object",
  required: ["used", "quota"],
  properties: {
    used: { type: "integer", minimum: 0 },
    quota: { type: "integer", minimum: 0, description: "The monthly quota; 0: unlimited." },
  },
} as const;

/** What a team has used of its monthly quotas: alerts (alerts service) and heartbeats (monitors service). */
export async function usageRoutes(app: FastifyInstance, { peers }: { peers: Peers }): Promise<void> {
  app.get<{ Params: { teamId: string } }>(
    "/teams/:teamId/usage",
    {
      config: TEAM,
      schema: {
        tags: ["teams"],
        summary: "A team's use of its monthly quotas this UTC month",
        response: {
          200: {
            description: "Created and reopened alerts, and accepted pings, this UTC month, with the quotas.",
            type: "object",
            required: ["usage"],
            properties: {
              usage: {
                type: "object",
                required: ["month", "alerts", "heartbeats"],
                properties: {
                  month: { type: "string", format: "date", description: "The first day of the UTC month counted." },
                  alerts: counter,
                  heartbeats: counter,
                },
              },
            },
          },
        },
      },
    },
    async (request) => {
      const { teamId } = request.params;
      const [team, alerts, heartbeats] = await Promise.all([
        callUnary(peers.auth, "getTeam", { teamId }),
        callUnary(peers.alerts, "getAlertUsage", { teamId }),
        callUnary(peers.monitors, "getHeartbeatUsage", { teamId }),
      ]);
      const quotas = requirePresent(team.team, "team");
      return {
        usage: {
          month: alerts.month,
          alerts: { used: alerts.used, quota: quotas.alertQuotaMonthly },
          heartbeats: { used: heartbeats.used, quota: quotas.heartbeatQuotaMonthly },
        },
      };
    },
  );
}
