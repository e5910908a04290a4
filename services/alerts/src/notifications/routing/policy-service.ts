import type { EntityManager, Orm } from "@pulsegate/db";
import { alertsErrors } from "../../errors.ts";
import type { ChannelService } from "../channels/channel-service.ts";
import { checkRoutes, type RouteInput } from "./check-routes.ts";
import { type NotificationPolicy, NotificationPolicySchema } from "./notification-policy.entity.ts";

export type PolicyView = NotificationPolicy;

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
    return this.#em().upsert(NotificationPolicySchema, { teamId, routes: checked.routes, updatedAt: this.#now() });
  }

  /** Null when the team has none. */
  async get(teamId: string): Promise<PolicyView | null> {
    return this.#em().findOne(NotificationPolicySchema, { teamId });
  }

  /** Back to "every channel gets every event"; deleting no policy is harmless. */
  async delete(teamId: string): Promise<void> {
    await this.#em().nativeDelete(NotificationPolicySchema, { teamId });
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}
