import type { FastifyInstance } from "fastify";
import { createLookupCache } from "../../../pipeline/lookup-cache.ts";
import type { UserRole } from "../../admin/actor.ts";
import type { GroupGrant } from "./oidc-settings.ts";

/** A team's id from its name (or its id), or undefined when there is no such team. */
export type FindTeam = (nameOrId: string) => Promise<string | undefined>;

/**
 * What a person's groups grant (OIDC_GROUPS): admin when any admin group matches, else the first
 * team grant, in configured order, whose group matches and whose team exists. No group, no access.
 */
export async function roleFromGroups(
  grants: GroupGrant[],
  groups: string[],
  findTeam: FindTeam,
): Promise<UserRole | undefined> {
  const mine = grants.filter((grant) => groups.includes(grant.group));
  if (mine.some((grant) => grant.role === "admin")) return { kind: "admin" };
  for (const grant of mine) {
    if (grant.role !== "team") continue;
    const teamId = await findTeam(grant.team);
    if (teamId !== undefined) return { kind: "team", teamId, scope: grant.scope };
  }
  return undefined;
}

type TeamsPage = { teams: { id: string; name: string }[]; nextCursor: string | null };

/**
 * Finds teams through the admin API in process, as the admin token: a team is named in OIDC_GROUPS by
 * its name, and only a listing finds a team by name. The answer for each name is kept a minute (a
 * team not found, 5 s), so sign-ins and the periodic re-checks of every session read the team list
 * once a minute per configured name, not once per person.
 */
export function teamFinder(gateway: FastifyInstance, adminToken: string): FindTeam {
  const cache = createLookupCache<string | undefined>({
    ttlMs: 60_000,
    negativeTtlMs: 5_000,
    // The names come from OIDC_GROUPS: a handful.
    maxEntries: 1_000,
    load: (nameOrId) => scanTeams(gateway, adminToken, nameOrId),
  });
  return (nameOrId) => cache.get(nameOrId);
}

async function scanTeams(gateway: FastifyInstance, adminToken: string, nameOrId: string): Promise<string | undefined> {
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const response = await gateway.inject({
      method: "GET",
      url: `/admin/v1/teams?limit=200${query}`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    if (response.statusCode !== 200) throw new Error(`listing teams answered ${response.statusCode}`);
    const page = response.json<TeamsPage>();
    const team = page.teams.find((candidate) => candidate.name === nameOrId || candidate.id === nameOrId);
    if (team) return team.id;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return undefined;
}
