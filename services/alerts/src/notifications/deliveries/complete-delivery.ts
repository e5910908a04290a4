import type { DeliveryStatus } from "@pulsegate/contract/vocabulary";
import type { EntityManager } from "@pulsegate/db";
import type { AttemptOutcome, ClaimedDelivery } from "./delivery.ts";

/**
 * An attempt's outcome, written only while this replica still holds the lease (`lease_token`)
 * and the delivery is pending; the lease goes back either way.
 */
const COMPLETE_DELIVERY = {
  delivered: `
    UPDATE alerts.deliveries
       SET status = 'delivered', delivered_at = now(), last_status_code = ?, last_error = NULL,
           locked_until = NULL, lease_token = NULL, updated_at = now()
     WHERE id = ? AND lease_token = ? AND status = 'pending' RETURNING status`,
  /** Failed for good when `final` or out of attempts; else pending again after the delay. */
  failed: `
    UPDATE alerts.deliveries
       SET status = CASE WHEN ? OR attempts >= max_attempts THEN 'failed' ELSE 'pending' END,
           next_attempt_at = now() + (? * interval '1 millisecond'),
           last_status_code = ?, last_error = ?, locked_until = NULL, lease_token = NULL, updated_at = now()
     WHERE id = ? AND lease_token = ? AND status = 'pending' RETURNING status`,
  /** Failed for good with only a reason: what PostgreSQL refused to store is left out. */
  setAside: `
    UPDATE alerts.deliveries
       SET status = 'failed', last_error = ?, locked_until = NULL, lease_token = NULL, updated_at = now()
     WHERE id = ? AND lease_token = ? AND status = 'pending' RETURNING status`,
} as const;

/** The delivery's new status, or null when the lease was lost (or the delivery is no longer pending). */
export async function completeDelivery(
  em: EntityManager,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
): Promise<DeliveryStatus | null> {
  const [row] = outcome.ok
    ? await em.execute<{ status: DeliveryStatus }[]>(COMPLETE_DELIVERY.delivered, [
        outcome.statusCode,
        delivery.id,
        delivery.leaseToken,
      ])
    : await em.execute<{ status: DeliveryStatus }[]>(COMPLETE_DELIVERY.failed, [
        outcome.final === true,
        outcome.retryInMs,
        outcome.statusCode,
        outcome.error,
        delivery.id,
        delivery.leaseToken,
      ]);
  return row?.status ?? null;
}

/**
 * Fails a delivery whose outcome PostgreSQL refused to store (`reason`: refusalOf's words), while
 * this replica holds its lease. Left pending, its lease would run out and it would be sent again,
 * and again, while the alert's later events to the channel waited behind it.
 */
export async function setAsideDelivery(
  em: EntityManager,
  delivery: ClaimedDelivery,
  reason: string,
): Promise<DeliveryStatus | null> {
  const [row] = await em.execute<{ status: DeliveryStatus }[]>(COMPLETE_DELIVERY.setAside, [
    `set aside: its outcome was refused (${reason})`,
    delivery.id,
    delivery.leaseToken,
  ]);
  return row?.status ?? null;
}
