import type { FastifyReply, FastifyRequest } from "fastify";

export const SESSION_COOKIE = "pulsegate_session";
const PATH = "/dashboard";

/** The session id the browser sent, if any. */
export function sessionIdOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Secure everywhere but plain-HTTP localhost, where browsers would drop a Secure cookie on 127.0.0.1. */
export function secureFor(request: FastifyRequest): boolean {
  return request.protocol === "https" || !LOOPBACK.has(request.hostname);
}

/** HttpOnly (no script reads it), SameSite=Strict (no other site sends it), scoped to the dashboard. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, id: string): void {
  const secure = secureFor(request) ? "; Secure" : "";
  reply.header("set-cookie", `${SESSION_COOKIE}=${id}; Path=${PATH}; HttpOnly; SameSite=Strict${secure}`);
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  const secure = secureFor(request) ? "; Secure" : "";
  reply.header("set-cookie", `${SESSION_COOKIE}=; Path=${PATH}; HttpOnly; SameSite=Strict; Max-Age=0${secure}`);
}
