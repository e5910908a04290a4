import { describe, expect, it } from "vitest";
import { rateLimitHeaders, secondsUntil } from "./rate-limit-headers.ts";

describe("secondsUntil", () => {
  it("rounds up and is at least 1", () => {
    expect(secondsUntil(0)).toBe(1);
    expect(secondsUntil(1)).toBe(1);
    expect(secondsUntil(1_000)).toBe(1);
    expect(secondsUntil(1_001)).toBe(2);
    expect(secondsUntil(59_500)).toBe(60);
  });
});

describe("rateLimitHeaders", () => {
  it("describes an admitted request without Retry-After", () => {
    expect(rateLimitHeaders({ allowed: true, limit: 10, remaining: 3, resetMs: 41_200 })).toEqual({
      "ratelimit-limit": "10",
      "ratelimit-remaining": "3",
      "ratelimit-reset": "42",
    });
  });

  it("adds Retry-After to a refused request", () => {
    expect(rateLimitHeaders({ allowed: false, limit: 10, remaining: 0, resetMs: 12_000 })).toEqual({
      "ratelimit-limit": "10",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "12",
      "retry-after": "12",
    });
  });
});
