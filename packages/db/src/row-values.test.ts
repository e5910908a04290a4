import { describe, expect, it } from "vitest";
import { rowDate, rowDateOrNull, rowTextArray } from "./row-values.ts";

describe("raw row values", () => {
  it("reads a timestamptz from a Date or its text", () => {
    const at = new Date("2026-11-23T17:00:00.123Z");
    expect(rowDate(at)).toBe(at);
    expect(rowDate("2026-11-23 17:00:00.123+00")).toEqual(at);
    expect(rowDateOrNull(null)).toBeNull();
  });

  it("reads a text[] from an array or its text", () => {
    expect(rowTextArray(["a", "b"])).toEqual(["a", "b"]);
    expect(rowTextArray('{al_1,"al_2"}')).toEqual(["al_1", "al_2"]);
    expect(rowTextArray("{}")).toEqual([]);
    expect(rowTextArray(null)).toEqual([]);
  });
});
