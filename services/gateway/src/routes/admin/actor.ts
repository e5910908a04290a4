import type { FastifyRequest } from "fastify";

export type ApiKeyScope = "read" | "write";

/** A live team API key as the gateway knows it (never its token). */
export type ApiKeyIdentity = { id: string; teamId: string; name: string; scope: ApiKeyScope };

/** Who is calling the admin API: the global admin token, or a team API key. */
export type Actor = { kind: "admin" } | ({ kind: "api_key" } & ApiKeyIdentity);

const actors = new WeakMap<FastifyRequest, Actor>();
const teams = new WeakMap<FastifyRequest, string>();

export function setActor(request: FastifyRequest, actor: Actor): void {
  actors.set(request, actor);
}

/** The caller of an admin request (set before anything else runs, see admin-routes.ts). */
export function actorOf(request: FastifyRequest): Actor {
  const actor = actors.get(request);
  if (!actor) throw new Error("admin request without an actor");
  return actor;
}

/** Records the team an admin request acts on, once its access was checked (see access.ts). */
export function setTargetTeam(request: FastifyRequest, teamId: string): void {
  teams.set(request, teamId);
}

/** The team an admin request acts on, when its route has one. */
export function targetTeamOf(request: FastifyRequest): string | undefined {
  return teams.get(request);
}
