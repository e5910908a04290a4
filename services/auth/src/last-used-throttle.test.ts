import { describe, expect, it } from "vitest";
import { LastUsedThrottle } from "./last-used-throttle.ts";

describe("LastUsedThrottle", () => {
  it("lets each key be written once a minute", () => {
    const throttle = new LastUsedThrottle();
    const t0 = 1_700_000_000_000;
    expect(throttle.due("a", t0)).toBe(true);
    expect(throttle.due("a", t0 + 59_999)).toBe(false);
    expect(throttle.due("b", t0 + 59_999)).toBe(true);
    expect(throttle.due("a", t0 + 60_000)).toBe(true);
    expect(throttle.due("a", t0 + 60_001)).toBe(false);
  });

  it("keeps at most 100,000 keys: past that the least recently used is forgotten, which only costs a write", () => {
    const throttle = new LastUsedThrottle();
    const t0 = 1_700_000_000_000;
    for (let i = 0; i < 100_000; i++) expect(throttle.due(`key-${i}`, t0)).toBe(true);
    expect(throttle.due("key-0", t0)).toBe(false);
    expect(throttle.due("one-more", t0)).toBe(true);
    // The one more pushed out the least recently used (key-1: key-0 was just asked for), no other.
    expect(throttle.due("key-1", t0)).toBe(true);
    expect(throttle.due("key-0", t0)).toBe(false);
    expect(throttle.due("key-99999", t0)).toBe(false);
  });
});
