import { callUnary } from "@pulsegate/grpc";
import type { Peers } from "../../peers/connect-peers.ts";

/**
 * Fails as auth does for an unknown team (404 team_not_found), before a team-scoped route creates
 * or lists anything: the owning service does not know which teams exist.
 */
export async function requireTeam(peers: Peers, teamId: string): Promise<void> {
  await callUnary(peers.auth, "getTeam", { teamId });
}
