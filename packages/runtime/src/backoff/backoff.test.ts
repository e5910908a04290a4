import { describe, expect, it } from "vitest";
import { backoffDelay, exponentialDelay } from "./backoff.ts";

const options = { base: 1_000, max: 60_000 };

describe("exponentialDelay", () => {
  it("doubles per attempt from the base, without jitter, up to the cap", () => {
    const seconds = { base: 1, max: 30 };
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((attempt) => exponentialDelay(attempt, seconds))).toEqual([
      1, 1, 2, 4, 8, 16, 30, 30,
    ]);
  });
});

describe("backoffDelay", () => {
  it("doubles per attempt, between half and all of the exponential value", () => {
    expect(backoffDelay(1, options, null, () => 0)).toBe(500);
    expect(backoffDelay(1, options, null, () => 1)).toBe(1_000);
    expect(backoffDelay(2, options, null, () => 0)).toBe(1_000);
    expect(backoffDelay(3, options, null, () => 1)).toBe(4_000);
    expect(backoffDelay(4, options, null, () => 0.5)).toBe(6_000);
  });

  it("is capped", () => {
    expect(backoffDelay(30, options, null, () => 1)).toBe(60_000);
    expect(backoffDelay(1_000, options, null, () => 0)).toBe(30_000);
  });

  it("spreads retries out (jitter)", () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(5, options)));
    expect(delays.size).toBeGreaterThan(10);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(8_000);
      expect(delay).toBeLessThanOrEqual(16_000);
    }
  });

  it("waits at least as long as Retry-After asks, up to the cap", () => {
    expect(backoffDelay(1, options, 20_000, () => 0)).toBe(20_000);
    expect(backoffDelay(1, options, 3_600_000, () => 0)).toBe(60_000);
    expect(backoffDelay(3, options, 10, () => 0)).toBe(2_000);
  });
});
