import { auth } from "@pulsegate/proto";
import type { FastifyRequest } from "fastify";
import type { AuditRecorder } from "../../audit/audit-recorder.ts";
import { actorOf, targetTeamOf } from "./actor.ts";

/** What an admin route says about an action it completed. Details: a few non-secret facts only. */
export type AuditEvent = {
  action: string;
  target: { kind: string; id: string };
  details?: Record<string, unknown>;
  /** Default: the team the route acts on (see routes/admin/access.ts). */
  teamId?: string;
};

export type RecordAudit = (request: FastifyRequest, event: AuditEvent) => Promise<void>;

/** Audits an action done by the request's actor; called after the action succeeded. */
export function createRecordAudit(recorder: AuditRecorder): RecordAudit {
  return (request, event) => {
    const teamId = event.teamId ?? targetTeamOf(request);
    if (teamId === undefined) throw new Error(`audited route ${request.routeOptions.url} has no team`);
    const actor = actorOf(request);
    return recorder.record({
      teamId,
      at: new Date(),
      actorKind:
        actor.kind === "admin"
          ? auth.AuditActorKind.AUDIT_ACTOR_KIND_ADMIN
          : auth.AuditActorKind.AUDIT_ACTOR_KIND_API_KEY,
      actorId: actor.kind === "admin" ? "" : actor.id,
      actorName: actor.kind === "admin" ? "" : actor.name,
      action: event.action,
      targetKind: event.target.kind,
      targetId: event.target.id,
      detailsJson: JSON.stringify(event.details ?? {}),
    });
  };
}
