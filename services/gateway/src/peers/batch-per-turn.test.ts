import { describe, expect, it } from "vitest";
import { batchPerTurn } from "./batch-per-turn.ts";

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
    const same = batchPerTurn(async (items: number[]) => {
      calls.push(items);
      return items;
    }, 2);
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
});
