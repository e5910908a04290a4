import { describe, expect, it } from "vitest";
import { INSTANT_LIMITS, instantSentence, isWithinInstantLimits } from "./instant-limits.ts";

describe("instant limits", () => {
  it("keeps the first and last millisecond of the range", () => {
    expect(isWithinInstantLimits(new Date(INSTANT_LIMITS.earliest))).toBe(true);
    expect(isWithinInstantLimits(new Date(INSTANT_LIMITS.latest))).toBe(true);
    expect(isWithinInstantLimits(new Date("2026-03-01T02:00:00Z"))).toBe(true);
  });

  it("refuses the millisecond on either side, year 0000, and an Invalid Date (a leap second)", () => {
    expect(isWithinInstantLimits(new Date(Date.parse(INSTANT_LIMITS.earliest) - 1))).toBe(false);
    expect(isWithinInstantLimits(new Date(Date.parse(INSTANT_LIMITS.latest) + 1))).toBe(false);
    expect(isWithinInstantLimits(new Date("0000-01-01T00:00:00Z"))).toBe(false);
    expect(isWithinInstantLimits(new Date("2030-06-30T23:59:60Z"))).toBe(false);
  });

  it("names the field and the range", () => {
    expect(instantSentence("startsAt")).toMatch(
      /^startsAt must be a date and time from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z/,
    );
  });
});
