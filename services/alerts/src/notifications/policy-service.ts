import type { EntityManager, Orm } from "@pulsegate/db";
import { toDate } from "../alerts/alert-row.ts";
import { alertsErrors } from "../errors.ts";
import type { ChannelService } from "./channel-service.ts";
import { checkRoutes, type RouteInput } from "./check-routes.ts";
import type { NotificationRoute } from "./route-event.ts";

export type PolicyView = { teamId: string; routes: NotificationRoute[]; updatedAt: Date };

type PolicyRow = { team_id: string; routes: NotificationRoute[]; updated_at: Date | string };

const fromRow = (row: PolicyRow): PolicyView => ({
  teamId: row.team_id,
  routes: row.routes,
  updatedAt: toDate(row.updated_at),
});

/** A team's notification policy: routes from severities to channels. No policy: every channel. */
export class PolicyService {
  readonly #orm: Orm;
  readonly #channels: ChannelService;
  readonly #now: () => Date;

  constructor(orm: Orm, channels: ChannelService, now: () => Date = () => new Date()) {
    this.#orm = orm;
    this.#channels = channels;
    this.#now = now;
  }

  async put(teamId: string, routes: RouteInput[]): Promise<PolicyView> {
    if (!teamId) throw alertsErrors.invalid([{ field: "teamId", message: "teamId is required." }]);
    const checked = checkRoutes(routes, await this.#channels.idsOf(teamId));
    if ("errors" in checked) throw alertsErrors.invalid(checked.errors);
    const [row] = await this.#em().execute<PolicyRow[]>(
      `INSERT INTO alerts.notification_policies (team_id, routes, updated_at) VALUES (?, ?::jsonb, ?)
       ON CONFLICT (team_id) DO UPDATE SET routes = excluded.routes, updated_at = excluded.updated_at
       RETURNING *`,
      [teamId, JSON.stringify(checked.routes), this.#now()],
    );
    return fromRow(row as PolicyRow);
  }

  /** Null when the team has none. */
  async get(teamId: string): Promise<PolicyView | null> {
    const [row] = await this.#em().execute<PolicyRow[]>(
      "SELECT * FROM alerts.notification_policies WHERE team_id = ?",
      [teamId],
    );
    return row ? fromRow(row) : null;
  }

  /** Back to "every channel gets every event"; deleting no policy is harmless. */
  async delete(teamId: string): Promise<void> {
    await this.#em().execute("DELETE FROM alerts.notification_policies WHERE team_id = ?", [teamId]);
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}
