import type { FastifyRequest } from "fastify";
import { errors } from "../../errors.ts";
import { type Actor, actorOf, reachesEveryTeam, setTargetTeam, teamAccessOf } from "./actor.ts";
import { notFound, type OwnedResource, type ResourceOwners } from "./resource-owners.ts";
import type { TeamPresence } from "./team-presence.ts";

/**
 * Which team an admin route acts on, declared by every admin route (`config.access`):
 * - `admin`: no one team (creating or listing teams): the admin token only, 403 for a key;
 * - `team`: the `:teamId` of the path;
 * - `{ owned }`: the team of the resource named by `:id`, asked of its service.
 * A team API key reaches its own team only; anything of another team is 404, as if it did not exist.
 */
export type AccessRule = "admin" | "team" | { owned: OwnedResource };

declare module "fastify" {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
}

export const ADMIN_ONLY = { access: "admin" } as const satisfies { access: AccessRule };
export const TEAM = { access: "team" } as const satisfies { access: AccessRule };
export const owned = (kind: OwnedResource): { access: AccessRule } => ({ access: { owned: kind } });

/** A team key (or a person with a team role) reaches its own team only. */
function reaches(actor: Actor, teamId: string): boolean {
  const access = teamAccessOf(actor);
  return access === undefined || access.teamId === teamId;
}

/**
 * Checks the caller may act on the route's team, and records that team for the audit log. The
 * admin token reaches everything. An owned resource's team is looked up (kept for long: owners
 * never change) and must still exist: a deleted team's resources are not found at once, while
 * their rows are being purged (a team route asks auth for its team itself).
 */
export function createAccessCheck(owners: ResourceOwners, presence: TeamPresence) {
  return async (request: FastifyRequest): Promise<void> => {
    const rule = request.routeOptions.config.access;
    const actor = actorOf(request);
    if (rule === undefined) throw new Error(`admin route ${request.routeOptions.url} declares no access rule`);
    if (rule === "admin") {
      if (!reachesEveryTeam(actor)) throw errors.adminTokenOnly("create or list teams");
      return;
    }
    const params = request.params as Record<string, string>;
    if (rule === "team") {
      const teamId = params.teamId ?? "";
      if (!reaches(actor, teamId)) throw notFound("team");
      setTargetTeam(request, teamId);
      return;
    }
    const teamId = await owners.teamOf(rule.owned, params.id ?? "");
    if (!reaches(actor, teamId)) throw notFound(rule.owned);
    if (!(await presence.exists(teamId))) throw notFound(rule.owned);
    setTargetTeam(request, teamId);
  };
}
