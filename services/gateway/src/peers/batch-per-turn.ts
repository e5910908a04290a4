import type { Span } from "@opentelemetry/api";
import { batchDurations, batchSizes } from "../metrics.ts";
import { requestSpan, startBatchTrace } from "./batch-trace.ts";

type Waiting<Item, Result> = {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
  /** The caller's request span, linked with the batch (batch-trace.ts). */
  span: Span | undefined;
};

export type BatchOptions = {
  /** A batch never holds more items. */
  maxBatch?: number;
  /**
   * Calls in flight at once (default 2). While that many are out, new items
   * keep accumulating (up to maxBatch) and go when one comes back: under load
   * the batches grow, idle they go at the end of the event-loop turn. On the
   * bench, 1 left the pipeline idle between calls and 4 or 8 made batches so
   * small that the per-batch work dominated (docs/performance.md).
   */
  maxInFlight?: number;
  /** Names the batch-size histogram's series (`rpc`). */
  name?: string;
  /**
   * Never more than `maxInFlight` calls out, even with `maxBatch` items
   * waiting (they go maxBatch at a time as calls come back). With
   * `maxInFlight: 1`, items are sent in the order they came, one batch
   * after the other. Otherwise a full batch goes at once.
   */
  ordered?: boolean;
};

/** A result that fails its one caller with `error`, while the other items of its batch are answered. */
export class ItemFailure {
  readonly error: unknown;

  constructor(error: unknown) {
    this.error = error;
  }
}

/**
 * Coalesces concurrent calls into one call of `send` (DESIGN §10: the
 * hot-path RPCs take repeated items), like a database's group commit. With
 * few calls in flight, the items of one event-loop turn go together; with
 * `maxInFlight` out, they wait for one to come back (or for `maxBatch` of
 * them), so a busy gateway sends fewer, larger batches instead of more
 * small ones. `send` answers one result per item, in order (an ItemFailure
 * fails that item's caller alone); if it fails, every caller of that batch
 * gets its error. Each call is traced as a batch
 * linked to its requests (batch-trace.ts), never inside one request's trace.
 */
export function batchPerTurn<Item, Result>(
  send: (items: Item[]) => Promise<(Result | ItemFailure)[]>,
  options: BatchOptions = {},
): (item: Item) => Promise<Result> {
  const { maxBatch = 256, maxInFlight = 2, name = "call", ordered = false } = options;
  let waiting: Waiting<Item, Result>[] = [];
  let scheduled = false;
  let inFlight = 0;

  const flush = () => {
    scheduled = false;
    if (waiting.length === 0) return;
    const batch = waiting.slice(0, maxBatch);
    waiting = waiting.slice(batch.length);
    inFlight += 1;
    batchSizes.record(batch.length, { rpc: name });
    const started = performance.now();
    const traced = startBatchTrace(
      name,
      batch.map((entry) => entry.span),
    );
    let failure: unknown;
    traced
      .run(() => send(batch.map((entry) => entry.item)))
      .then(
        (results) => {
          if (results.length !== batch.length) {
            const error = new Error(`expected ${batch.length} results, got ${results.length}`);
            for (const entry of batch) entry.reject(error);
            return;
          }
          batch.forEach((entry, index) => {
            const result = results[index];
            if (result instanceof ItemFailure) entry.reject(result.error);
            else entry.resolve(result as Result);
          });
        },
        (error: unknown) => {
          failure = error ?? new Error("batch failed");
          for (const entry of batch) entry.reject(error);
        },
      )
      .finally(() => {
        traced.end(failure);
        batchDurations.record((performance.now() - started) / 1000, { rpc: name });
        inFlight -= 1;
        // What accumulated meanwhile goes now.
        if (waiting.length > 0) flush();
      });
  };

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      waiting.push({ item, resolve, reject, span: requestSpan() });
      if (waiting.length >= maxBatch && (!ordered || inFlight < maxInFlight)) flush();
      else if (!scheduled && inFlight < maxInFlight) {
        scheduled = true;
        setImmediate(() => {
          // Every slot taken meanwhile: the next completion sends this batch.
          if (inFlight < maxInFlight) flush();
          else scheduled = false;
        });
      }
    });
}
