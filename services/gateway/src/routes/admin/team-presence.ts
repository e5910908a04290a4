import { NotFoundError } from "@pulsegate/contract/errors";
import { callUnary, domainErrorFromGrpc } from "@pulsegate/grpc";
import type { Peers } from "../../peers/connect-peers.ts";
import { createLookupCache, type LookupCache } from "../../pipeline/lookup-cache.ts";

/**
 * Whether a team exists, asked of auth and kept a while: a resource addressed by its own id
 * (`/webhooks/:id`) of a deleted team is answered as not found at once, though its rows are still
 * being purged in the background (docs/decisions.md, "Deleting"). A deletion through any replica
 * drops the answer at once (team-changes.ts); with that notice lost, `ttlMs` bounds it.
 */
export type TeamPresence = {
  exists: (teamId: string) => Promise<boolean>;
  forget: (teamId: string) => void;
  clear: () => void;
};

export function createTeamPresence(peers: Peers, options: { ttlMs: number }): TeamPresence {
  const cache: LookupCache<boolean> = createLookupCache({
    ttlMs: options.ttlMs,
    maxEntries: 50_000,
    load: async (teamId) => {
      try {
        await callUnary(peers.auth, "getTeam", { teamId });
        return true;
      } catch (error) {
        if (domainErrorFromGrpc(error) instanceof NotFoundError) return false;
        throw error;
      }
    },
  });
  return { exists: (teamId) => cache.get(teamId), forget: (teamId) => cache.invalidate(teamId), clear: cache.clear };
}
