type Waiting<Item, Result> = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void };

/**
 * Coalesces the items asked for during one event-loop turn into one call of
 * `send` (DESIGN §10: the hot-path RPCs take repeated items). `send` answers
 * one result per item, in order; if it fails, every caller of that batch gets
 * its error. A batch never holds more than `maxBatch` items.
 */
export function batchPerTurn<Item, Result>(
  send: (items: Item[]) => Promise<Result[]>,
  maxBatch = 128,
): (item: Item) => Promise<Result> {
  let waiting: Waiting<Item, Result>[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    send(batch.map((entry) => entry.item)).then(
      (results) => {
        if (results.length !== batch.length) {
          const error = new Error(`expected ${batch.length} results, got ${results.length}`);
          for (const entry of batch) entry.reject(error);
          return;
        }
        batch.forEach((entry, index) => {
          entry.resolve(results[index] as Result);
        });
      },
      (error: unknown) => {
        for (const entry of batch) entry.reject(error);
      },
    );
  };

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (waiting.length >= maxBatch) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
