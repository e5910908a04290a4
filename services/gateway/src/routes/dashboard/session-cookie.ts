import type { FastifyReply, FastifyRequest } from "fastify";

// Read and written through @fastify/cookie, registered by the dashboard's routes.
export const SESSION_COOKIE = "pulsegate_session";
const PATH = "/dashboard";

/** The session id the browser sent, if any. */
export function sessionIdOf(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Secure everywhere but plain-HTTP localhost, where browsers would drop a Secure cookie on 127.0.0.1. */
export function secureFor(request: FastifyRequest): boolean {
  return request.protocol === "https" || !LOOPBACK.has(request.hostname);
}

/** HttpOnly (no script reads it), SameSite=Strict (no other site sends it), scoped to the dashboard. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, id: string): void {
  reply.setCookie(SESSION_COOKIE, id, { path: PATH, httpOnly: true, sameSite: "strict", secure: secureFor(request) });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: PATH, httpOnly: true, sameSite: "strict", secure: secureFor(request) });
}
