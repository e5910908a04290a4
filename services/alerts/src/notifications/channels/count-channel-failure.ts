import type { EntityManager } from "@pulsegate/db";

/**
 * A failed attempt on an enabled channel: starts its run of failures (failing_since) unless one is
 * under way, and counts the delivery when it failed for good (`?`: 1 or 0). Atomic, so concurrent
 * attempts each count. `?`: the count, the channel id.
 */
export const COUNT_CHANNEL_FAILURE = `UPDATE alerts.channels
        SET failing_since = coalesce(failing_since, now()), failed_deliveries = failed_deliveries + ?
      WHERE id = ? AND enabled AND deleted_at IS NULL
      RETURNING (extract(epoch FROM now() - failing_since) * 1000)::float8 AS failing_ms, failed_deliveries`;

/** The run so far: how long it has lasted, how many deliveries failed in it. */
export type ChannelFailureRun = { failing_ms: number; failed_deliveries: number };

/** The run after this failure; undefined when the channel is disabled or gone. */
export async function countChannelFailure(
  em: EntityManager,
  channelId: string,
  failedForGood: boolean,
): Promise<ChannelFailureRun | undefined> {
  const [run] = await em.execute<ChannelFailureRun[]>(COUNT_CHANNEL_FAILURE, [failedForGood ? 1 : 0, channelId]);
  return run;
}
