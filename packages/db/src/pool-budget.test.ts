import { describe, expect, it } from "vitest";
import { splitPoolBudget } from "./pool-budget.ts";

describe("splitPoolBudget", () => {
  it("gives half to the hot path's pool and the rest to the ORM, never more than the budget", () => {
    expect(splitPoolBudget(40)).toEqual({ orm: 20, hotPath: 20 });
    expect(splitPoolBudget(3)).toEqual({ orm: 2, hotPath: 1 });
    expect(splitPoolBudget(2)).toEqual({ orm: 1, hotPath: 1 });
    for (let budget = 2; budget <= 200; budget++) {
      const { orm, hotPath } = splitPoolBudget(budget);
      expect(orm + hotPath).toBe(budget);
      expect(Math.min(orm, hotPath)).toBeGreaterThanOrEqual(1);
    }
  });

  it("refuses a budget that leaves a pool nothing", () => {
    expect(() => splitPoolBudget(1)).toThrow(/DB_POOL_MAX must be at least 2/);
  });
});
