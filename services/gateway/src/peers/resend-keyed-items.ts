import { status } from "@grpc/grpc-js";
import { ItemFailure } from "./batch-per-turn.ts";

/**
 * For a batch write (TriggerAlert, RecordPing, ResolveAlertsByKey): a call that failed UNAVAILABLE
 * may have been applied by its replica before it died or lost its database, so the batch is never
 * sent again whole (each item could be applied twice). An item with an idempotency key cannot be:
 * alerts and monitors keep the key in the transaction that applies it, and answer a repeat from
 * the first. Those items are sent once more, together, to whichever replica is up (the client
 * balances); the others fail with the call's error (503, "retry shortly"), as they would have.
 * Reads are sent again by the gRPC client itself (@pulsegate/grpc's idempotent-methods.ts).
 */
export function resendKeyedItems<Item extends { idempotencyKey: string }, Result>(
  send: (items: Item[]) => Promise<Result[]>,
): (items: Item[]) => Promise<(Result | ItemFailure)[]> {
  return async (items) => {
    try {
      return await send(items);
    } catch (error) {
      const keyed = items.filter((item) => item.idempotencyKey !== "");
      if ((error as { code?: unknown }).code !== status.UNAVAILABLE || keyed.length === 0) throw error;
      const again = await send(keyed);
      if (again.length !== keyed.length) throw new Error(`expected ${keyed.length} results, got ${again.length}`);
      let next = 0;
      return items.map((item) => (item.idempotencyKey === "" ? new ItemFailure(error) : (again[next++] as Result)));
    }
  };
}
