import { callUnary } from "@pulsegate/grpc";
import type { FastifyInstance } from "fastify";
import type { Peers } from "../../peers/connect-peers.ts";
import { present } from "./present.ts";
import { listAlertsQuery, noBody, pageOnlyQuery } from "./schemas.ts";
import { alertJson, cursorJson, occurrenceJson } from "./to-json.ts";

type PageQuery = { cursor?: string; limit?: string };

/** 0 lets the alerts service apply its default page size. */
const limitOf = (query: PageQuery) => (query.limit === undefined ? 0 : Number(query.limit));

/** Alerts, their occurrences, acknowledge and resolve (alerts). */
export async function alertRoutes(app: FastifyInstance, { peers }: { peers: Peers }): Promise<void> {
  const client = peers.alerts;

  app.get<{ Params: { teamId: string }; Querystring: PageQuery & { status?: string } }>(
    "/teams/:teamId/alerts",
    { schema: { querystring: listAlertsQuery } },
    async (request) => {
      const { teamId } = request.params;
      const query = request.query;
      const [, response] = await Promise.all([
        callUnary(peers.auth, peers.auth.getTeam, { teamId }, peers.timeoutMs),
        callUnary(
          client,
          client.listAlerts,
          { teamId, status: query.status ?? "", cursor: query.cursor ?? "", limit: limitOf(query) },
          peers.timeoutMs,
        ),
      ]);
      return { alerts: response.alerts.map(alertJson), nextCursor: cursorJson(response.nextCursor) };
    },
  );

  app.get<{ Params: { id: string } }>("/alerts/:id", async (request) => {
    const response = await callUnary(client, client.getAlert, { id: request.params.id }, peers.timeoutMs);
    return { alert: alertJson(present(response.alert, "alert")) };
  });

  app.get<{ Params: { id: string }; Querystring: PageQuery }>(
    "/alerts/:id/occurrences",
    { schema: { querystring: pageOnlyQuery } },
    async (request) => {
      const response = await callUnary(
        client,
        client.listOccurrences,
        { alertId: request.params.id, cursor: request.query.cursor ?? "", limit: limitOf(request.query) },
        peers.timeoutMs,
      );
      return { occurrences: response.occurrences.map(occurrenceJson), nextCursor: cursorJson(response.nextCursor) };
    },
  );

  app.post<{ Params: { id: string } }>("/alerts/:id/acknowledge", { schema: { body: noBody } }, async (request) => {
    const response = await callUnary(client, client.acknowledgeAlert, { id: request.params.id }, peers.timeoutMs);
    return { alert: alertJson(present(response.alert, "alert")) };
  });

  app.post<{ Params: { id: string } }>("/alerts/:id/resolve", { schema: { body: noBody } }, async (request) => {
    const response = await callUnary(client, client.resolveAlert, { id: request.params.id }, peers.timeoutMs);
    return { alert: alertJson(present(response.alert, "alert")) };
  });
}
