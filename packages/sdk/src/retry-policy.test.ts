import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRetryAfter, type RetryPolicy, retryDelay } from "./retry-policy.ts";

const policy: RetryPolicy = { retries: 5, baseDelayMs: 500, maxDelayMs: 60_000 };

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates, and nothing else", () => {
    const now = Date.parse("2026-03-01T12:00:00Z");
    expect(parseRetryAfter("12", now)).toBe(12_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Sun, 01 Mar 2026 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 11:00:00 GMT", now)).toBe(0);
    for (const value of [null, undefined, "", "-1", "1.5", "soon", "12 s"]) {
      expect(parseRetryAfter(value, now)).toBeNull();
    }
  });
});

describe("retryDelay", () => {
  it("stops after the last retry", () => {
    expect(retryDelay(policy.retries + 1, null, policy)).toBeNull();
    expect(retryDelay(1, null, { ...policy, retries: 0 })).toBeNull();
  });

  it("without Retry-After: full jitter, uniform below min(cap, base·2^(n-1))", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, r) => {
          const delay = retryDelay(retry, null, policy, () => r);
          const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
          // Exactly r of the way up, whole milliseconds: at least 0, below the ceiling.
          expect(delay).toBe(Math.floor(r * ceiling));
          expect(delay).toBeLessThan(ceiling);
        },
      ),
    );
    expect(retryDelay(3, null, policy, () => 0)).toBe(0);
    expect(retryDelay(3, null, policy, () => 0.5)).toBe(1000);
    // The cap holds however many retries.
    expect(retryDelay(40, null, { ...policy, retries: 100 }, () => 0.999)).toBeLessThan(policy.maxDelayMs);
  });

  it("with Retry-After: never sooner than asked, spread by at most the base delay, within the cap", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: policy.maxDelayMs }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (after, r) => {
          const delay = retryDelay(1, after, policy, () => r) as number;
          expect(delay).toBeGreaterThanOrEqual(after);
          expect(delay).toBeLessThanOrEqual(Math.min(after + policy.baseDelayMs, policy.maxDelayMs));
        },
      ),
    );
  });

  it("gives up when Retry-After is beyond the cap (a monthly quota, say)", () => {
    expect(retryDelay(1, policy.maxDelayMs + 1, policy)).toBeNull();
    expect(retryDelay(1, 86_400_000, policy)).toBeNull();
  });
});
