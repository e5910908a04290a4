import { callUnary } from "@pulsegate/grpc";
import type { FastifyInstance } from "fastify";
import { errors } from "../../errors.ts";
import { page, wrapped } from "../../openapi/admin-components.ts";
import { nameTakenResponse } from "../../openapi/error-responses.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import type { LookupNotice } from "../../pipeline/lookup-notices.ts";
import { iso } from "./absent-as-null.ts";
import { ADMIN_ONLY, TEAM } from "./access.ts";
import { actorOf, reachesEveryTeam } from "./actor.ts";
import { createdEvent } from "./audit-events.ts";
import type { RecordAudit } from "./record-audit.ts";
import { requirePresent } from "./require-present.ts";
import { requireTeam } from "./require-team.ts";
import {
  createTeamBody,
  type PageQuery,
  pageOnlyQuery,
  pageRequest,
  rotateSecretBody,
  updateTeamBody,
} from "./schemas.ts";
import { cursorJson, teamJson } from "./to-json.ts";

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

/** What a team's own API key may not change: the operator sets what the team pays for. */
const OPERATOR_FIELDS = ["subscriptionExpiresAt", "alertQuotaMonthly", "heartbeatQuotaMonthly"] as const;

const tags = ["teams"];

/** The same secret as Standard Webhooks libraries take it (docs/secrets.md): shown only beside it. */
const standardWebhooksSecret = {
  type: "string",
  pattern: "^whsec_[A-Za-z0-9+/]{86}==$",
  description:
    "The webhook secret as Standard Webhooks libraries take it: whsec_ and base64 of its 64 characters (the same HMAC key). Shown this once, like the secret; webhooks and monitors with signatureScheme standard-webhooks verify with it.",
} as const;

/** Teams and their webhook secret (auth). The secret appears only in create and rotate answers. */
export async function teamRoutes(
  app: FastifyInstance,
  {
    peers,
    audit,
    onTeamChanged,
    announceLookups,
    onApiKeysDeleted,
  }: {
    peers: Peers;
    audit: RecordAudit;
    onTeamChanged?: ((teamId: string) => Promise<void>) | undefined;
    /** Every gateway forgets a deleted team's look-ups (webhooks, monitors, badges, keys), before it is answered. */
    announceLookups: (notice: LookupNotice) => Promise<void>;
    /** A deleted team's API keys: forgotten here, their dashboard sessions ended. */
    onApiKeysDeleted: (apiKeyIds: string[]) => Promise<void>;
  },
): Promise<void> {
  const { auth } = peers;

  app.post<{ Body: CreateTeamBody }>(
    "/teams",
    {
      config: ADMIN_ONLY,
      schema: {
        tags,
        summary: "Create a team (admin token only)",
        body: createTeamBody,
        response: {
          201: {
            description: "The team, and its webhook secret: shown this once, never again.",
            type: "object",
            required: ["team", "webhookSecret", "standardWebhooksSecret"],
            properties: {
              team: { $ref: "Team#" },
              webhookSecret: { type: "string", pattern: "^[0-9a-f]{64}$" },
              standardWebhooksSecret,
            },
          },
          409: nameTakenResponse,
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const response = await callUnary(auth, "createTeam", {
        name: body.name,
        subscriptionExpiresAt: body.subscriptionExpiresAt ? new Date(body.subscriptionExpiresAt) : undefined,
        alertQuotaMonthly: body.alertQuotaMonthly,
        heartbeatQuotaMonthly: body.heartbeatQuotaMonthly,
      });
      const team = requirePresent(response.team, "team");
      await audit(request, { ...createdEvent("team", team), teamId: team.id });
      return reply.code(201).send({
        team: teamJson(team),
        webhookSecret: response.webhookSecret,
        standardWebhooksSecret: response.standardWebhooksSecret,
      });
    },
  );

  app.get<{ Querystring: PageQuery }>(
    "/teams",
    {
      config: ADMIN_ONLY,
      schema: {
        tags,
        summary: "List every team, oldest first (admin token only)",
        querystring: pageOnlyQuery,
        response: { 200: page("teams", "Team", "A page of teams.") },
      },
    },
    async (request) => {
      const response = await callUnary(auth, "listTeams", pageRequest(request.query));
      return { teams: response.teams.map(teamJson), nextCursor: cursorJson(response.nextCursor) };
    },
  );

  app.get<{ Params: TeamParams }>(
    "/teams/:teamId",
    { config: TEAM, schema: { tags, summary: "Get a team", response: { 200: wrapped("team", "Team", "The team.") } } },
    async (request) => {
      const response = await callUnary(auth, "getTeam", { teamId: request.params.teamId });
      return { team: teamJson(requirePresent(response.team, "team")) };
    },
  );

  app.patch<{ Params: TeamParams; Body: UpdateTeamBody }>(
    "/teams/:teamId",
    {
      config: TEAM,
      schema: {
        tags,
        summary: "Change a team's name, subscription or quotas",
        description: "A team API key may change the name only: subscription and quotas are the admin token's.",
        body: updateTeamBody,
        response: { 200: wrapped("team", "Team", "The team as changed."), 409: nameTakenResponse },
      },
    },
    async (request) => {
      const body = request.body;
      const changed = Object.keys(body).filter((field) => body[field as keyof UpdateTeamBody] !== undefined);
      if (!reachesEveryTeam(actorOf(request)) && OPERATOR_FIELDS.some((field) => changed.includes(field))) {
        throw errors.adminTokenOnly("change a team's subscription or quotas");
      }
      const expiresAt = body.subscriptionExpiresAt;
      const response = await callUnary(auth, "updateTeam", {
        teamId: request.params.teamId,
        name: body.name,
        subscriptionExpiresAt: typeof expiresAt === "string" ? new Date(expiresAt) : undefined,
        clearSubscriptionExpiresAt: expiresAt === null,
        alertQuotaMonthly: body.alertQuotaMonthly,
        heartbeatQuotaMonthly: body.heartbeatQuotaMonthly,
      });
      // Quotas and subscription travel with verified signatures: every gateway forgets what it cached.
      await onTeamChanged?.(request.params.teamId);
      await audit(request, {
        action: "team.update",
        target: { kind: "team", id: request.params.teamId },
        details: { fields: changed },
      });
      return { team: teamJson(requirePresent(response.team, "team")) };
    },
  );

  app.delete<{ Params: TeamParams }>(
    "/teams/:teamId",
    {
      config: TEAM,
      schema: {
        tags,
        summary: "Delete a team and everything of it (admin token only)",
        operationId: "deleteTeam",
        description:
          'At once: the team, its secret and API keys are gone, its webhooks, monitors and badges answer 404 on every gateway, and nothing more is sent to its channels. Its webhooks, monitors, pings, alerts, deliveries and the rest are removed in bounded batches in the background; its audit log is kept, readable with the admin token (docs/decisions.md, "Deleting"). A 503 midway: send the DELETE again.',
        response: { 204: { type: "null", description: "Deleted." } },
      },
    },
    async (request, reply) => {
      if (!reachesEveryTeam(actorOf(request))) throw errors.adminTokenOnly("delete a team");
      const { teamId } = request.params;
      await requireTeam(peers, teamId);
      // alerts and monitors first: if auth then fails, the team still exists and the DELETE can be sent again.
      await callUnary(peers.alerts, "deleteTeamData", { teamId });
      await callUnary(peers.monitors, "deleteTeamData", { teamId });
      const { team, apiKeyIds } = await callUnary(auth, "deleteTeam", { teamId });
      await onTeamChanged?.(teamId);
      await announceLookups({ kind: "team", teamId });
      await onApiKeysDeleted(apiKeyIds);
      await audit(request, {
        action: "team.delete",
        target: { kind: "team", id: teamId },
        details: { name: requirePresent(team, "team").name },
      });
      return reply.code(204).send();
    },
  );

  app.post<{ Params: TeamParams; Body: { graceSeconds?: number } }>(
    "/teams/:teamId/webhook-secret/rotate",
    {
      config: TEAM,
      schema: {
        tags,
        summary: "Rotate the team's webhook secret",
        description: "The new secret is shown this once; the previous one keeps verifying for graceSeconds.",
        body: rotateSecretBody,
        response: {
          200: {
            description: "The new secret (shown once), and until when the previous one still verifies.",
            type: "object",
            required: ["webhookSecret", "standardWebhooksSecret", "previousValidUntil", "team"],
            properties: {
              webhookSecret: { type: "string", pattern: "^[0-9a-f]{64}$" },
              standardWebhooksSecret,
              previousValidUntil: { type: ["string", "null"], format: "date-time" },
              team: { $ref: "Team#" },
            },
          },
        },
      },
    },
    async (request) => {
      const graceSeconds = request.body.graceSeconds;
      const response = await callUnary(auth, "rotateSecret", { teamId: request.params.teamId, graceSeconds });
      await onTeamChanged?.(request.params.teamId);
      await audit(request, {
        action: "team.rotate_secret",
        target: { kind: "team", id: request.params.teamId },
        details: graceSeconds === undefined ? {} : { graceSeconds },
      });
      return {
        webhookSecret: response.webhookSecret,
        standardWebhooksSecret: response.standardWebhooksSecret,
        previousValidUntil: iso(response.previousValidUntil),
        team: teamJson(requirePresent(response.team, "team")),
      };
    },
  );
}
