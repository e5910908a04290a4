import { auth } from "@pulsegate/proto";
import type { FastifyRequest } from "fastify";
import type { AuditRecorder } from "../../audit/audit-recorder.ts";
import { type Actor, actorOf, targetTeamOf } from "./actor.ts";

/** What an admin route says about an action it completed. Details: a few non-secret facts only. */
export type AuditEvent = {
  action: string;
  target: { kind: string; id: string };
  details?: Record<string, unknown>;
  /** Default: the team the route acts on (see routes/admin/access.ts). */
  teamId?: string;
};

export type RecordAudit = (request: FastifyRequest, event: AuditEvent) => Promise<void>;

/** Who did it, as an audit entry names them. */
function actorFields(actor: Actor) {
  if (actor.kind === "admin") {
    return { actorKind: auth.AuditActorKind.AUDIT_ACTOR_KIND_ADMIN, actorId: "", actorName: "", actorEmail: "" };
  }
  if (actor.kind === "api_key") {
    const actorKind = auth.AuditActorKind.AUDIT_ACTOR_KIND_API_KEY;
    return { actorKind, actorId: actor.id, actorName: actor.name, actorEmail: "" };
  }
  const actorKind = auth.AuditActorKind.AUDIT_ACTOR_KIND_USER;
  return { actorKind, actorId: actor.subject, actorName: actor.name, actorEmail: actor.email };
}

/** Audits an action done by the request's actor; called after the action succeeded. */
export function createRecordAudit(recorder: AuditRecorder): RecordAudit {
  return (request, event) => {
    const teamId = event.teamId ?? targetTeamOf(request);
    if (teamId === undefined) throw new Error(`audited route ${request.routeOptions.url} has no team`);
    const actor = actorOf(request);
    return recorder.record({
      teamId,
      at: new Date(),
      ...actorFields(actor),
      action: event.action,
      targetKind: event.target.kind,
      targetId: event.target.id,
      detailsJson: JSON.stringify(event.details ?? {}),
    });
  };
}
