import type { Orm } from "@pulsegate/db";
import { alertsErrors } from "../errors.ts";
import { deleteTeamData } from "./delete-team-data.ts";

/** A team's deletion as alerts sees it: what stops at once (delete-team-data.ts), the rest purged later. */
export class TeamDeletions {
  readonly #orm: Orm;
  readonly #onDeleted: () => void;
  readonly #now: () => Date;

  /** `onDeleted`: a team was recorded, for the purge to start (purge-deleted-teams.ts). */
  constructor(orm: Orm, options: { onDeleted?: () => void; now?: () => Date } = {}) {
    this.#orm = orm;
    this.#onDeleted = options.onDeleted ?? (() => undefined);
    this.#now = options.now ?? (() => new Date());
  }

  /** Idempotent: deleting a team twice records it once. */
  async delete(teamId: string): Promise<void> {
    if (!teamId) throw alertsErrors.invalid([{ field: "teamId", message: "teamId is required." }]);
    await this.#orm.em.fork().transactional((tx) => deleteTeamData(tx, teamId, this.#now()));
    this.#onDeleted();
  }
}
