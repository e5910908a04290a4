import { callUnary } from "@pulsegate/grpc";
import type { FastifyInstance } from "fastify";
import type { Peers } from "../../peers/connect-peers.ts";
import { SEVERITIES, type Severity } from "../../validation/index.ts";
import { monitorJson, pingJson } from "./monitor-json.ts";
import { present } from "./present.ts";
import { publicBaseUrl } from "./public-base-url.ts";
import { noBody, pageOnlyQuery } from "./schemas.ts";

type MonitorBody = {
  name: string;
  intervalSeconds?: number;
  graceSeconds?: number;
  severity?: Severity;
  reopenWindowSeconds?: number;
};
type PageQuery = { cursor?: string; limit?: string };

const YEAR_SECONDS = 31_536_000;

export const createMonitorBody = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: { type: "string", minLength: 1, maxLength: 200 },
    intervalSeconds: { type: "integer", minimum: 1, maximum: YEAR_SECONDS },
    graceSeconds: { type: "integer", minimum: 0, maximum: YEAR_SECONDS },
    severity: { type: "string", enum: [...SEVERITIES] },
    reopenWindowSeconds: { type: "integer", minimum: 0, maximum: YEAR_SECONDS },
  },
} as const;

/** Heartbeat monitors (monitors). A team's existence is checked with auth first: monitors does not know teams. */
export async function monitorRoutes(
  app: FastifyInstance,
  options: { peers: Peers; publicBaseUrl?: string | undefined },
): Promise<void> {
  const { peers } = options;
  const client = peers.monitors;
  const requireTeam = (teamId: string) => callUnary(peers.auth, peers.auth.getTeam, { teamId }, peers.timeoutMs);

  app.post<{ Params: { teamId: string }; Body: MonitorBody }>(
    "/teams/:teamId/monitors",
    { schema: { body: createMonitorBody } },
    async (request, reply) => {
      const { teamId } = request.params;
      const body = request.body;
      await requireTeam(teamId);
      const response = await callUnary(
        client,
        client.createMonitor,
        {
          teamId,
          name: body.name,
          intervalSeconds: body.intervalSeconds,
          graceSeconds: body.graceSeconds,
          severity: body.severity ?? "",
          reopenWindowSeconds: body.reopenWindowSeconds,
        },
        peers.timeoutMs,
      );
      return reply.code(201).send({
        monitor: monitorJson(present(response.monitor, "monitor"), publicBaseUrl(request, options.publicBaseUrl)),
      });
    },
  );

  app.get<{ Params: { teamId: string } }>("/teams/:teamId/monitors", async (request) => {
    const { teamId } = request.params;
    const [, response] = await Promise.all([
      requireTeam(teamId),
      callUnary(client, client.listMonitors, { teamId }, peers.timeoutMs),
    ]);
    const baseUrl = publicBaseUrl(request, options.publicBaseUrl);
    return { monitors: response.monitors.map((monitor) => monitorJson(monitor, baseUrl)), nextCursor: null };
  });

  app.get<{ Params: { id: string } }>("/monitors/:id", async (request) => {
    const response = await callUnary(client, client.getMonitor, { id: request.params.id }, peers.timeoutMs);
    return {
      monitor: monitorJson(present(response.monitor, "monitor"), publicBaseUrl(request, options.publicBaseUrl)),
    };
  });

  app.post<{ Params: { id: string } }>("/monitors/:id/pause", { schema: { body: noBody } }, async (request) => {
    const response = await callUnary(client, client.pauseMonitor, { id: request.params.id }, peers.timeoutMs);
    return {
      monitor: monitorJson(present(response.monitor, "monitor"), publicBaseUrl(request, options.publicBaseUrl)),
    };
  });

  app.post<{ Params: { id: string } }>("/monitors/:id/resume", { schema: { body: noBody } }, async (request) => {
    const response = await callUnary(client, client.resumeMonitor, { id: request.params.id }, peers.timeoutMs);
    return {
      monitor: monitorJson(present(response.monitor, "monitor"), publicBaseUrl(request, options.publicBaseUrl)),
    };
  });

  app.get<{ Params: { id: string }; Querystring: PageQuery }>(
    "/monitors/:id/pings",
    { schema: { querystring: pageOnlyQuery } },
    async (request) => {
      const response = await callUnary(
        client,
        client.listPings,
        {
          monitorId: request.params.id,
          cursor: request.query.cursor ?? "",
          limit: request.query.limit === undefined ? 0 : Number(request.query.limit),
        },
        peers.timeoutMs,
      );
      return {
        pings: response.pings.map(pingJson),
        nextCursor: response.nextCursor === "" ? null : response.nextCursor,
      };
    },
  );
}
