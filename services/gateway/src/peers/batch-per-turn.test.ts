import { describe, expect, it } from "vitest";
import { type BatchOptions, batchPerTurn, ItemFailure } from "./batch-per-turn.ts";

/** Lets the batcher's turn end, so what it gathered is sent. */
const nextTurn = () => new Promise((done) => setImmediate(done));

/** A batcher over an echo that answers each call only when the test opens its gate, oldest first. */
function gatedEcho(options: BatchOptions) {
  const calls: number[][] = [];
  const gates: (() => void)[] = [];
  const send = batchPerTurn((items: number[]) => {
    calls.push(items);
    return new Promise<number[]>((resolve) => gates.push(() => resolve(items)));
  }, options);
  return { send, calls, openNextGate: () => gates.shift()?.(), waiting: () => gates.length };
}

describe("batchPerTurn", () => {
  it("sends the items of one turn in one call and answers each caller in order", async () => {
    const calls: number[][] = [];
    const double = batchPerTurn(async (items: number[]) => {
      calls.push(items);
      return items.map((item) => item * 2);
    });
    expect(await Promise.all([double(1), double(2), double(3)])).toEqual([2, 4, 6]);
    expect(await double(4)).toBe(8);
    expect(calls).toEqual([[1, 2, 3], [4]]);
  });

  it("splits batches at maxBatch", async () => {
    const calls: number[][] = [];
    const same = batchPerTurn(
      async (items: number[]) => {
        calls.push(items);
        return items;
      },
      { maxBatch: 2 },
    );
    expect(await Promise.all([same(1), same(2), same(3)])).toEqual([1, 2, 3]);
    expect(calls).toEqual([[1, 2], [3]]);
  });

  it("rejects every caller of a failed batch, and of a batch with the wrong number of results", async () => {
    const failing = batchPerTurn(async (_items: number[]): Promise<number[]> => {
      throw new Error("down");
    });
    const results = await Promise.allSettled([failing(1), failing(2)]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    const short = batchPerTurn(async (_items: number[]) => [1]);
    await expect(Promise.all([short(1), short(2)])).rejects.toThrow(/expected 2 results/);
  });

  it("fails the caller of an ItemFailure alone, and answers the others of its batch", async () => {
    const oddsFail = batchPerTurn(async (items: number[]) =>
      items.map((item) => (item % 2 ? new ItemFailure(new Error(`no ${item}`)) : item)),
    );
    const results = await Promise.allSettled([oddsFail(1), oddsFail(2), oddsFail(3)]);
    expect(results).toEqual([
      { status: "rejected", reason: new Error("no 1") },
      { status: "fulfilled", value: 2 },
      { status: "rejected", reason: new Error("no 3") },
    ]);
  });

  it("keeps accumulating while maxInFlight calls are out, and sends the rest when one comes back", async () => {
    const { send: slow, calls, openNextGate } = gatedEcho({ maxInFlight: 1 });
    const first = slow(1);
    await nextTurn();
    expect(calls).toEqual([[1]]);
    // The one call is out: these wait, across several turns, and go together.
    const later = [slow(2), slow(3)];
    await nextTurn();
    later.push(slow(4));
    await nextTurn();
    expect(calls).toEqual([[1]]);
    openNextGate();
    await first;
    await nextTurn();
    expect(calls).toEqual([[1], [2, 3, 4]]);
    openNextGate();
    expect(await Promise.all(later)).toEqual([2, 3, 4]);
  });

  it("sends at maxBatch even while calls are out", async () => {
    const calls: number[][] = [];
    const never = batchPerTurn(
      (items: number[]) => {
        calls.push(items);
        return new Promise<number[]>(() => undefined);
      },
      { maxInFlight: 1, maxBatch: 3 },
    );
    void never(1);
    await nextTurn();
    for (const item of [2, 3, 4, 5]) void never(item);
    expect(calls).toEqual([[1], [2, 3, 4]]);
  });

  it("with ordered, holds a full batch back while the one call is out, so items go in arrival order", async () => {
    const { send: slow, calls, openNextGate, waiting } = gatedEcho({ maxInFlight: 1, maxBatch: 2, ordered: true });
    const all = [slow(1)];
    await nextTurn();
    for (const item of [2, 3, 4, 5, 6]) all.push(slow(item));
    await nextTurn();
    expect(calls).toEqual([[1]]);
    while (waiting() > 0) {
      openNextGate();
      await nextTurn();
    }
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(calls).toEqual([[1], [2, 3], [4, 5], [6]]);
  });
});
