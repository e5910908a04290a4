import { describe, expect, it } from "vitest";
import { createLookupCache } from "./lookup-cache.ts";

function counter<V>(answer: (key: string) => V | Error) {
  const calls: string[] = [];
  const load = async (key: string) => {
    calls.push(key);
    const value = answer(key);
    if (value instanceof Error) throw value;
    return value;
  };
  return { calls, load };
}

describe("createLookupCache", () => {
  it("caches found and not-found results until the TTL passes", async () => {
    let time = 1_000;
    const { calls, load } = counter((key) => (key === "known" ? { id: 1 } : undefined));
    const cache = createLookupCache({ ttlMs: 100, load, now: () => time });
    expect(await cache.get("known")).toEqual({ id: 1 });
    expect(await cache.get("unknown")).toBeUndefined();
    await cache.get("known");
    await cache.get("unknown");
    expect(calls).toEqual(["known", "unknown"]);
    time += 100;
    await cache.get("unknown");
    expect(calls).toEqual(["known", "unknown"]);
    time += 1;
    await cache.get("unknown");
    expect(calls).toEqual(["known", "unknown", "unknown"]);
  });

  it("shares one load among concurrent callers", async () => {
    const { calls, load } = counter(() => "value");
    const cache = createLookupCache({ ttlMs: 100, load });
    const results = await Promise.all([cache.get("a"), cache.get("a"), cache.get("a")]);
    expect(results).toEqual(["value", "value", "value"]);
    expect(calls).toEqual(["a"]);
  });

  it("does not cache failures", async () => {
    let fail = true;
    const { calls, load } = counter(() => (fail ? new Error("down") : "value"));
    const cache = createLookupCache({ ttlMs: 100, load });
    await expect(cache.get("a")).rejects.toThrow("down");
    fail = false;
    expect(await cache.get("a")).toBe("value");
    expect(calls).toEqual(["a", "a"]);
  });

  it("does not cache with a zero TTL, and forgets invalidated keys", async () => {
    const { calls, load } = counter(() => "value");
    const uncached = createLookupCache({ ttlMs: 0, load });
    await uncached.get("a");
    await uncached.get("a");
    expect(calls).toEqual(["a", "a"]);
    const cached = createLookupCache({ ttlMs: 1_000, load });
    await cached.get("b");
    cached.invalidate("b");
    await cached.get("b");
    expect(calls).toEqual(["a", "a", "b", "b"]);
  });

  it("answers the callers of a load that an invalidation overtook, and does not keep what it loaded", async () => {
    let release = () => {};
    const gate = new Promise<void>((done) => {
      release = done;
    });
    const calls: string[] = [];
    const cache = createLookupCache({
      ttlMs: 1_000,
      load: async (key: string) => {
        calls.push(key);
        await gate;
        return `value-${calls.length}`;
      },
    });
    const waiting = [cache.get("a"), cache.get("b")];
    cache.invalidate("a");
    cache.clear();
    release();
    expect(await Promise.all(waiting)).toEqual(["value-2", "value-2"]);
    expect(await cache.get("a")).toBe("value-3");
    expect(calls).toEqual(["a", "b", "a"]);
  });

  it("keeps at most maxEntries, dropping the oldest", async () => {
    const { calls, load } = counter((key) => key);
    const cache = createLookupCache({ ttlMs: 1_000, maxEntries: 2, load });
    await cache.get("a");
    await cache.get("b");
    await cache.get("c");
    await cache.get("b");
    await cache.get("a");
    expect(calls).toEqual(["a", "b", "c", "a"]);
  });
});

describe("createLookupCache, long-lived", () => {
  it("keeps not-found for negativeTtlMs only", async () => {
    let time = 1_000;
    const { calls, load } = counter((key) => (key === "known" ? "value" : undefined));
    const cache = createLookupCache({ ttlMs: 60_000, negativeTtlMs: 100, load, now: () => time });
    await cache.get("known");
    await cache.get("new");
    time = 1_150;
    await cache.get("known");
    await cache.get("new");
    expect(calls).toEqual(["known", "new", "new"]);
  });

  it("answers with the expired value while loads fail, when asked to", async () => {
    let time = 1_000;
    let fail = false;
    const { load } = counter(() => (fail ? new Error("down") : "value"));
    const cache = createLookupCache({ ttlMs: 100, staleOnError: true, load, now: () => time });
    await cache.get("a");
    time = 1_500;
    fail = true;
    expect(await cache.get("a")).toBe("value");
    await expect(cache.get("b")).rejects.toThrow("down");
  });
});
