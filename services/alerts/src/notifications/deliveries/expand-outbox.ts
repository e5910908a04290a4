import { randomUUID } from "node:crypto";
import type { EntityManager, Orm } from "@pulsegate/db";
import { reportSetAside, setAsideReason } from "@pulsegate/grpc";
import type { Logger } from "@pulsegate/runtime/logger";
import { isTransientError } from "@pulsegate/runtime/transient-error";
import { ChannelSchema } from "../channels/channel.entity.ts";
import { CHANNEL_DISABLED, noticeRecipients } from "../messages/channel-notice.ts";
import { NotificationPolicySchema } from "../routing/notification-policy.entity.ts";
import { routeEvent } from "../routing/route-event.ts";
import { insertDeliveries, type NewDelivery } from "./insert-deliveries.ts";
import {
  claimOutboxEvents,
  markOutboxExpanded,
  selectUnexpandedOutboxIds,
  setAsideOutboxEvent,
} from "./outbox-expansion-queue.ts";

export type ExpandOptions = { batchSize: number; maxAttempts: number; log: Pick<Logger, "warn"> };

/**
 * Turns outbox events into deliveries, one per routed channel, in one short
 * transaction (no network inside). Replicas take disjoint events (SKIP
 * LOCKED) and the unique (outbox_id, channel_id) makes a repeat harmless.
 *
 * One event must never stall the queue for everyone: when a batch fails for
 * a reason other than an unreachable database, its events are expanded one
 * at a time, and an event that fails on its own is set aside (marked, with
 * the error's code and never its content; counted and logged once) so the rest flow.
 * Failing alone is the verdict here: the expansion is our own code over our
 * own rows, so a row PostgreSQL refuses and a row it cannot route (a corrupt
 * policy) are set aside alike (setAsideReason says which). Returns how many
 * events it expanded or set aside.
 */
export async function expandOutbox(orm: Orm, options: ExpandOptions): Promise<number> {
  try {
    return await expandEvents(orm, options, null);
  } catch (error) {
    if (isTransientError(error)) throw error;
    return expandOneByOne(orm, options);
  }
}

async function expandOneByOne(orm: Orm, options: ExpandOptions): Promise<number> {
  const pending = await selectUnexpandedOutboxIds(em(orm), options.batchSize);
  let done = 0;
  for (const id of pending) {
    try {
      done += await expandEvents(orm, options, id);
    } catch (error) {
      if (isTransientError(error)) throw error;
      const reason = setAsideReason(error);
      // Counted and logged once: not when another replica expanded or set it aside meanwhile.
      if (await setAsideOutboxEvent(em(orm), id, reason)) {
        reportSetAside(options.log, "outbox_expansion", { outboxId: id }, reason);
      }
      done++;
    }
  }
  return done;
}

/** Expands the oldest unexpanded events, or only event `onlyId`. */
async function expandEvents(orm: Orm, options: ExpandOptions, onlyId: string | null): Promise<number> {
  return orm.em.fork().transactional(async (em) => {
    const events = await claimOutboxEvents(em, { onlyId, limit: options.batchSize });
    if (events.length === 0) return 0;
    const teamIds = [...new Set(events.map((event) => event.team_id))];
    const channels = await em.find(
      ChannelSchema,
      { teamId: { $in: teamIds }, enabled: true, deletedAt: null },
      { orderBy: { createdAt: "asc", id: "asc" } },
    );
    const policies = await em.find(NotificationPolicySchema, { teamId: { $in: teamIds } });
    const routesByTeam = new Map(policies.map((policy) => [policy.teamId, policy.routes]));
    const deliveries = events.flatMap((event): NewDelivery[] => {
      const teamChannels = channels.filter((channel) => channel.teamId === event.team_id);
      // A channel notice (one was disabled) goes to the team's other enabled channels that people read,
      // whatever the policy: the policy routes alerts by severity, and a notice has none.
      const routed =
        event.event_type === CHANNEL_DISABLED
          ? noticeRecipients(teamChannels)
          : routeEvent(event.severity ?? "", teamChannels, routesByTeam.get(event.team_id) ?? null);
      return routed.map((channelId) => ({
        id: `dlv_${randomUUID().replaceAll("-", "")}`,
        outbox_id: event.id,
        channel_id: channelId,
        team_id: event.team_id,
        alert_id: event.alert_id,
        event_type: event.event_type,
      }));
    });
    if (deliveries.length > 0) await insertDeliveries(em, deliveries, options.maxAttempts);
    await markOutboxExpanded(
      em,
      events.map((event) => event.id),
    );
    return events.length;
  });
}

function em(orm: Orm): EntityManager {
  return orm.em.fork();
}
