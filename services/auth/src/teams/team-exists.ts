import type { EntityManager } from "@pulsegate/db";
import { authErrors } from "../errors.ts";
import { TeamSchema } from "./team.entity.ts";

/** Fails with team_not_found unless the team exists: what is listed or created under it needs one. */
export async function requireTeamExists(em: EntityManager, teamId: string): Promise<void> {
  if ((await em.count(TeamSchema, { id: teamId })) === 0) throw authErrors.teamNotFound();
}
