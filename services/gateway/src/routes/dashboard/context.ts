import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { mayWrite } from "../admin/actor.ts";
import { type AdminCall, createAdminCall } from "./admin-client.ts";
import type { Session } from "./session-store.ts";

/** What a signed-in page handler works with. */
export type PageContext = {
  session: Session;
  api: AdminCall;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The submitted form (empty for a GET). */
  form: URLSearchParams;
  /** Whether the user may change things (the admin token, a write key, an admin or team member). */
  canWrite: boolean;
};

/** The request's session, and its flash as loaded: a page that changed it has it written back. */
const sessions = new WeakMap<FastifyRequest, { session: Session; flashAsLoaded: string }>();

const flashText = (session: Session) => JSON.stringify(session.flash ?? null);

export function setSession(request: FastifyRequest, session: Session): void {
  sessions.set(request, { session, flashAsLoaded: flashText(session) });
}

/** The signed-in session of this request, loaded before its handler (undefined on public pages). */
export function sessionOf(request: FastifyRequest): Session | undefined {
  return sessions.get(request)?.session;
}

/** The request's session when a page set or took its flash: the store must keep the change. */
export function changedSessionOf(request: FastifyRequest): Session | undefined {
  const loaded = sessions.get(request);
  return loaded && flashText(loaded.session) !== loaded.flashAsLoaded ? loaded.session : undefined;
}

export function contextOf(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): PageContext {
  const session = sessionOf(request);
  if (!session) throw new Error("dashboard page without a session");
  return {
    session,
    api: createAdminCall(app, request, session),
    request,
    reply,
    form: request.body instanceof URLSearchParams ? request.body : new URLSearchParams(),
    canWrite: mayWrite(session.actor),
  };
}

/** Sends a rendered page (or a redirect after a POST: see) with the dashboard's headers. */
export function sendPage(reply: FastifyReply, document: string, status = 200): FastifyReply {
  return reply.code(status).type("text/html; charset=utf-8").send(document);
}

/** 303 after a POST, so a reload never submits again. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header("location", location).send();
}

/** Where to go back to after an action: the page it was sent from (this dashboard only), else `fallback`. */
export function backTo(request: FastifyRequest, fallback: string): string {
  const referer = request.headers.referer;
  if (!referer) return fallback;
  try {
    const url = new URL(referer);
    return url.host === request.host && url.pathname.startsWith("/dashboard/") ? url.pathname + url.search : fallback;
  } catch {
    return fallback;
  }
}
