import { callUnary } from "@pulsegate/grpc";
import { auth } from "@pulsegate/proto";
import type { FastifyInstance } from "fastify";
import { page } from "../../openapi/admin-components.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { iso } from "./absent-as-null.ts";
import { TEAM } from "./access.ts";
import { type PageQuery, pageOnlyQuery, pageRequest } from "./schemas.ts";
import { cursorJson } from "./to-json.ts";

/** Who did it: the admin token (no id or name), a team API key, or a person (their subject, name and email). */
function actorJson(entry: auth.AuditEntry) {
  if (entry.actorKind === auth.AuditActorKind.AUDIT_ACTOR_KIND_API_KEY) {
    return { kind: "api_key", id: entry.actorId, name: entry.actorName };
  }
  if (entry.actorKind === auth.AuditActorKind.AUDIT_ACTOR_KIND_USER) {
    return { kind: "user", id: entry.actorId, name: entry.actorName, email: entry.actorEmail || null };
  }
  return { kind: "admin", id: null, name: null };
}

function auditEntryJson(entry: auth.AuditEntry) {
  let details: unknown = {};
  try {
    details = entry.detailsJson === "" ? {} : JSON.parse(entry.detailsJson);
  } catch {
    details = {};
  }
  return {
    id: entry.id,
    at: iso(entry.at),
    actor: actorJson(entry),
    action: entry.action,
    target: { kind: entry.targetKind, id: entry.targetId },
    details,
  };
}

/** The audit log of a team's admin actions (auth), newest first. */
export async function auditLogRoutes(app: FastifyInstance, { peers }: { peers: Peers }): Promise<void> {
  const client = peers.auth;

  app.get<{ Params: { teamId: string }; Querystring: PageQuery }>(
    "/teams/:teamId/audit-log",
    {
      config: TEAM,
      schema: {
        tags: ["audit log"],
        summary: "A team's audit log, newest first",
        description:
          "Admin actions on the team, each recorded after it succeeded (within a moment: entries are sent to auth off the request path).",
        querystring: pageOnlyQuery,
        response: { 200: page("entries", "AuditEntry", "A page of entries, newest first.") },
      },
    },
    async (request) => {
      const response = await callUnary(client, "listAuditEntries", {
        teamId: request.params.teamId,
        ...pageRequest(request.query),
      });
      return { entries: response.entries.map(auditEntryJson), nextCursor: cursorJson(response.nextCursor) };
    },
  );
}
