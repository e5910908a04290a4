import { randomUUID } from "node:crypto";
import type { DeliveryStatus } from "@pulsegate/contract/vocabulary";
import type { EntityManager, Orm } from "@pulsegate/db";
import { alertsErrors } from "../../errors.ts";
import { deliveryResultOf, deliveryResults } from "../../metrics/alerts-metrics.ts";
import { claimDeliveries } from "./claim-deliveries.ts";
import { completeDelivery, setAsideDelivery } from "./complete-delivery.ts";
import type { AttemptOutcome, ClaimedDelivery, DeliveryView } from "./delivery.ts";
import { reopenFailedDelivery, selectDeliveryState } from "./reopen-failed-delivery.ts";
import { selectDeliveryViews } from "./select-delivery-views.ts";

/**
 * Deliveries in PostgreSQL: claiming with a lease, recording outcomes. Every
 * statement stands alone (no transaction is held across an attempt).
 */
export class DeliveryStore {
  readonly #orm: Orm;
  readonly #onRetried: () => void;

  /** `onRetried`: after a retry reopened a delivery (the dispatcher is nudged to send it at once). */
  constructor(orm: Orm, options: { onRetried?: () => void } = {}) {
    this.#orm = orm;
    this.#onRetried = options.onRetried ?? (() => undefined);
  }

  /** Leases up to `limit` due deliveries for `leaseMs` and counts the attempt (claim-deliveries.ts says which are due). */
  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    return claimDeliveries(this.#em(), { leaseToken: randomUUID(), leaseMs, limit });
  }

  /**
   * Records an attempt's outcome and gives the lease back: delivered, retried
   * after `retryInMs`, or failed once the attempts are used up. A replica
   * whose lease ran out (another took over) or whose channel was deleted
   * meanwhile records nothing. Returns the delivery's new status, or null.
   */
  async complete(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<DeliveryStatus | null> {
    const status = await completeDelivery(this.#em(), delivery, outcome);
    deliveryResults.add(1, { result: deliveryResultOf(outcome.ok, status), channel_kind: delivery.kind });
    return status;
  }

  /** Fails a delivery whose outcome PostgreSQL refused to store (complete-delivery.ts); null when the lease was lost. */
  async setAside(delivery: ClaimedDelivery, reason: string): Promise<DeliveryStatus | null> {
    const status = await setAsideDelivery(this.#em(), delivery, reason);
    if (status !== null) deliveryResults.add(1, { result: "failed", channel_kind: delivery.kind });
    return status;
  }

  /**
   * Makes a failed delivery pending again, due now, with `extraAttempts`
   * more attempts and the same id (receivers de-duplicate on it). Only a
   * failed delivery to a channel that is still enabled qualifies.
   */
  async retry(id: string, extraAttempts: number): Promise<DeliveryView> {
    const current = await selectDeliveryState(this.#em(), id);
    if (!current) throw alertsErrors.deliveryNotFound();
    if (current.status !== "failed") throw alertsErrors.deliveryNotFailed(current.status);
    if (!current.usable) throw alertsErrors.channelUnavailable();
    // A concurrent retry got there first: report what it left.
    if (!(await reopenFailedDelivery(this.#em(), id, extraAttempts))) throw alertsErrors.deliveryNotFailed("pending");
    this.#onRetried();
    const [view] = await this.#views("id", id);
    return view as DeliveryView;
  }

  async get(id: string): Promise<DeliveryView> {
    const [view] = await this.#views("id", id);
    if (!view) throw alertsErrors.deliveryNotFound();
    return view;
  }

  /** Every delivery of an alert, oldest event first. */
  async listForAlert(alertId: string): Promise<DeliveryView[]> {
    return this.#views("alert", alertId);
  }

  #views(by: "id" | "alert", id: string): Promise<DeliveryView[]> {
    return selectDeliveryViews(this.#em(), by, id);
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}
