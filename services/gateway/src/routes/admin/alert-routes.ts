import type { AlertStatus } from "@pulsegate/contract/vocabulary";
import { callUnary } from "@pulsegate/grpc";
import type { FastifyInstance } from "fastify";
import { alertStatusToProto } from "../../json-vocabulary.ts";
import { page, wrapped } from "../../openapi/admin-components.ts";
import { conflictResponse } from "../../openapi/error-responses.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { owned, TEAM } from "./access.ts";
import { actorDisplayName, actorOf } from "./actor.ts";
import { type OwnedCollection, ownedGetRoute, ownedPageRoute } from "./collection-routes.ts";
import type { RecordAudit } from "./record-audit.ts";
import { requirePresent } from "./require-present.ts";
import { requireTeam } from "./require-team.ts";
import { listAlertsQuery, noBody, type PageQuery, pageRequest } from "./schemas.ts";
import { alertJson, cursorJson, occurrenceJson } from "./to-json.ts";

/** 0 lets the alerts service apply its default page size. */

const tags = ["alerts"];
const ALERTS: OwnedCollection = { plural: "alerts", kind: "alert", ref: "Alert", tags };

/** Alerts, their occurrences, acknowledge and resolve (alerts). */
export async function alertRoutes(
  app: FastifyInstance,
  { peers, audit }: { peers: Peers; audit: RecordAudit },
): Promise<void> {
  const client = peers.alerts;

  app.get<{ Params: { teamId: string }; Querystring: PageQuery & { status?: AlertStatus } }>(
    "/teams/:teamId/alerts",
    {
      config: TEAM,
      schema: {
        tags,
        summary: "List a team's alerts, newest first",
        querystring: listAlertsQuery,
        response: { 200: page("alerts", "Alert", "A page of alerts.") },
      },
    },
    async (request) => {
      const { teamId } = request.params;
      const query = request.query;
      const [, response] = await Promise.all([
        requireTeam(peers, teamId),
        callUnary(client, "listAlerts", {
          teamId,
          state: alertStatusToProto(query.status),
          ...pageRequest(query),
        }),
      ]);
      return { alerts: response.alerts.map(alertJson), nextCursor: cursorJson(response.nextCursor) };
    },
  );

  ownedGetRoute(app, ALERTS, {
    summary: "Get an alert",
    description: "The alert.",
    get: async (id) => alertJson(requirePresent((await callUnary(client, "getAlert", { id })).alert, "alert")),
  });

  ownedPageRoute(app, ALERTS, {
    children: "occurrences",
    ref: "Occurrence",
    summary: "Every accepted trigger folded into an alert, newest first",
    description: "A page of occurrences.",
    page: async (alertId, page) => {
      const response = await callUnary(client, "listOccurrences", { alertId, ...page });
      return { items: response.occurrences.map(occurrenceJson), nextCursor: response.nextCursor };
    },
  });

  const transition = (verb: "acknowledge" | "resolve") =>
    app.post<{ Params: { id: string } }>(
      `/alerts/:id/${verb}`,
      {
        config: owned("alert"),
        schema: {
          tags,
          summary: verb === "acknowledge" ? "Acknowledge an alert" : "Resolve an alert",
          description:
            verb === "acknowledge"
              ? "Harmless when already acknowledged; a resolved alert answers 409 alert_resolved."
              : "Harmless when already resolved; notifies the team's channels (alert.resolved).",
          body: noBody,
          response: { 200: wrapped("alert", "Alert", "The alert."), 409: conflictResponse },
        },
      },
      async (request) => {
        const call = verb === "acknowledge" ? "acknowledgeAlert" : "resolveAlert";
        const response = await callUnary(client, call, {
          id: request.params.id,
          by: actorDisplayName(actorOf(request)),
        });
        const alert = requirePresent(response.alert, "alert");
        await audit(request, { action: `alert.${verb}`, target: { kind: "alert", id: alert.id } });
        return { alert: alertJson(alert) };
      },
    );
  transition("acknowledge");
  transition("resolve");
}
