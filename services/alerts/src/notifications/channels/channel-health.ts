import type { DeliveryStatus } from "@pulsegate/contract/vocabulary";
import { LockMode, type Orm } from "@pulsegate/db";
import { writeOutboxEventsWith } from "../../outbox/write-outbox-events.ts";
import { cancelPendingDeliveries } from "../deliveries/cancel-pending-deliveries.ts";
import { CHANNEL_DISABLED, channelNoticePayload } from "../messages/channel-notice.ts";
import { ChannelSchema } from "./channel.entity.ts";
import { countChannelFailure } from "./count-channel-failure.ts";

export type ChannelHealthOptions = {
  /** Every delivery has failed for at least this long (NOTIFY_DISABLE_AFTER_MS, 24 h)… */
  disableAfterMs: number;
  /** …and at least this many deliveries failed for good (NOTIFY_DISABLE_MIN_FAILURES, 5). */
  minFailures: number;
};

export type AttemptResult = { delivered: true } | { delivered: false; status: DeliveryStatus | null; gone: boolean };

/**
 * The delivery policy's memory of a channel: a success clears its run of
 * failures; a failed attempt starts the run (failing_since) and a delivery
 * failed for good counts in it. A 410 Gone, or a run as long as
 * `disableAfterMs` with at least `minFailures` failed deliveries, disables the
 * channel with a reason (shown in the admin API), cancels what was pending for
 * it and tells the team's other channels once. Returns the reason when this
 * call disabled it.
 */
export async function recordChannelHealth(
  orm: Orm,
  channelId: string,
  result: AttemptResult,
  options: ChannelHealthOptions,
): Promise<string | null> {
  const em = orm.em.fork();
  if (result.delivered) {
    await em.nativeUpdate(
      ChannelSchema,
      { id: channelId, $or: [{ failingSince: { $ne: null } }, { failedDeliveries: { $gt: 0 } }] },
      { failingSince: null, failedDeliveries: 0 },
    );
    return null;
  }
  if (result.gone) return disableChannel(orm, channelId, "the receiver answered 410 Gone");
  const failedForGood = result.status === "failed";
  const run = await countChannelFailure(em, channelId, failedForGood);
  if (!run || !failedForGood) return null;
  if (run.failed_deliveries < options.minFailures || run.failing_ms < options.disableAfterMs) return null;
  return disableChannel(
    orm,
    channelId,
    `every delivery failed for ${describeSpan(run.failing_ms)} (${run.failed_deliveries} events)`,
  );
}

/** Disables an enabled channel once (concurrent callers: the first wins), with its notice. */
async function disableChannel(orm: Orm, channelId: string, reason: string): Promise<string | null> {
  return orm.em.fork().transactional(async (em) => {
    // Locked, then checked again: of concurrent callers, the first wins and the others find it disabled.
    const channel = await em.findOne(
      ChannelSchema,
      { id: channelId, enabled: true, deletedAt: null },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!channel) return null;
    const now = new Date();
    channel.enabled = false;
    channel.disabledReason = reason;
    channel.disabledAt = now;
    channel.updatedAt = now;
    await cancelPendingDeliveries(em, channelId, `channel disabled: ${reason}`, now);
    const notice = channelNoticePayload({
      id: channel.id,
      teamId: channel.teamId,
      kind: channel.kind,
      name: channel.name,
      maskedUrl: channel.maskedUrl,
      disabledReason: reason,
      disabledAt: now.toISOString(),
    });
    await writeOutboxEventsWith(em, [
      { teamId: channel.teamId, alertId: null, type: CHANNEL_DISABLED, payload: notice, createdAt: now },
    ]);
    return reason;
  });
}

function describeSpan(ms: number): string {
  if (ms >= 3_600_000) return `${Math.floor(ms / 3_600_000)} h`;
  if (ms >= 60_000) return `${Math.floor(ms / 60_000)} min`;
  return `${Math.max(1, Math.floor(ms / 1000))} s`;
}
