import { type ChannelListener, listenToChannel } from "@pulsegate/db";
import type { Logger } from "@pulsegate/runtime/logger";
import type { TeamDirectory } from "./team-directory.ts";
import type { TeamKeys } from "./team-keys.ts";

/** Where auth.teams announces a change to what verification reads (migration 0007); the payload is the team id. */
export const TEAM_CHANGES_CHANNEL = "auth_team_changed";

/**
 * Keeps this replica's keys in step with changes made through any replica (or by hand in the
 * database): an announced team's opened keys are dropped and its sealed keys read again at once,
 * so a rotation with no grace holds here within a notification's delay instead of the cache's
 * life (VERIFIER_CACHE_MS) or the directory's refresh (TEAM_DIRECTORY_REFRESH_MS), which stay as
 * the fallback. Each time the listener is (again) in place, announcements may have been missed:
 * every opened key is dropped and the directory catches up.
 */
export function followTeamChanges(url: string, keys: TeamKeys, directory: TeamDirectory, log: Logger): ChannelListener {
  const warn = (error: unknown) => log.warn({ err: error }, "team directory could not be refreshed");
  return listenToChannel({
    url,
    channel: TEAM_CHANGES_CHANNEL,
    log,
    onNotification: (teamId) => {
      keys.forget(teamId);
      directory.reload(teamId).catch(warn);
    },
    onListening: () => {
      keys.forgetAll();
      directory.refresh().catch(warn);
    },
  });
}
