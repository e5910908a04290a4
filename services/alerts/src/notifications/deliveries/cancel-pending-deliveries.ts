import type { EntityManager } from "@pulsegate/db";

/**
 * A disabled or deleted channel gets nothing more, not even what was queued for it: one
 * statement over the channel's pending deliveries (an attempt under way still finishes).
 */
const CANCEL_PENDING_DELIVERIES = `
  UPDATE alerts.deliveries SET status = 'cancelled', last_error = ?, locked_until = NULL, lease_token = NULL,
         updated_at = ?
   WHERE channel_id = ? AND status = 'pending'`;

export async function cancelPendingDeliveries(
  em: EntityManager,
  channelId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await em.execute(CANCEL_PENDING_DELIVERIES, [reason, now, channelId]);
}
