import type { FastifyRequest } from "fastify";

export type ApiKeyScope = "read" | "write";

/** A live team API key as the gateway knows it (never its token). */
export type ApiKeyIdentity = { id: string; teamId: string; name: string; scope: ApiKeyScope };

/**
 * What a person signed in through the identity provider may do, from their groups (OIDC_GROUPS):
 * everything, as the admin token; or one team, as a team key of that scope.
 */
export type UserRole = { kind: "admin" } | { kind: "team"; teamId: string; scope: ApiKeyScope };

/** A person signed in through the identity provider: its subject, and a name and email to show. */
export type UserIdentity = { subject: string; name: string; email: string; role: UserRole };

/** Who is calling the admin API: the global admin token, a team API key, or a signed-in person. */
export type Actor = { kind: "admin" } | ({ kind: "api_key" } & ApiKeyIdentity) | ({ kind: "user" } & UserIdentity);

export type UserActor = Extract<Actor, { kind: "user" }>;

/** The one team an actor is confined to, and how (as a team key is); undefined when it reaches every team. */
export function teamAccessOf(actor: Actor): { teamId: string; scope: ApiKeyScope } | undefined {
  if (actor.kind === "api_key") return { teamId: actor.teamId, scope: actor.scope };
  if (actor.kind === "user" && actor.role.kind === "team")
    return { teamId: actor.role.teamId, scope: actor.role.scope };
  return undefined;
}

/** Who an actor is, as people read it (an alert's "acknowledged by", notifications). */
export function actorDisplayName(actor: Actor): string {
  if (actor.kind === "admin") return "admin token";
  if (actor.kind === "api_key") return `API key ${actor.name}`;
  return actor.email ? `${actor.name} <${actor.email}>` : actor.name;
}

/** Whether the actor reaches every team and may do what only the admin token may. */
export const reachesEveryTeam = (actor: Actor): boolean => teamAccessOf(actor) === undefined;

/** Whether the actor may change things: everyone but a read key and a team viewer. */
export const mayWrite = (actor: Actor): boolean => teamAccessOf(actor)?.scope !== "read";

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
