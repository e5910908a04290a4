import { describe, expect, it } from "vitest";
import { BatchReadCache } from "./batch-read-cache.ts";

/** A value as a webhook read for triggers might be: its id and one setting. */
type Row = { id: string; enabled: boolean };

function webhook(id: string, enabled = true): Row {
  return { id, enabled };
}

/** A store whose loads are counted and can be held open. */
function store(initial: Row[]) {
  const rows = new Map(initial.map((row) => [row.id, row]));
  const loads: string[][] = [];
  let gate: Promise<void> | undefined;
  return {
    rows,
    loads,
    hold() {
      let release = () => {};
      gate = new Promise((done) => {
        release = done;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
    load: async (ids: string[]) => {
      loads.push(ids);
      const snapshot = new Map(ids.flatMap((id) => (rows.has(id) ? [[id, { ...rows.get(id) } as Row]] : [])));
      await gate;
      return snapshot;
    },
  };
}

describe("BatchReadCache", () => {
  it("reads a batch's misses in one load and serves them from memory until the TTL ends", async () => {
    let now = 1_000;
    const db = store([webhook("wh_1"), webhook("wh_2")]);
    const cache = new BatchReadCache<Row>({ ttlMs: 5_000, load: db.load, now: () => now });
    expect([...(await cache.getMany(["wh_1", "wh_2", "wh_1"])).keys()]).toEqual(["wh_1", "wh_2"]);
    expect(db.loads).toEqual([["wh_1", "wh_2"]]);
    now = 6_000;
    await cache.getMany(["wh_1", "wh_2"]);
    expect(db.loads).toHaveLength(1);
    now = 6_001;
    await cache.getMany(["wh_1"]);
    expect(db.loads).toEqual([["wh_1", "wh_2"], ["wh_1"]]);
  });

  it("keeps unknown ids as unknown for the TTL too", async () => {
    const db = store([]);
    const cache = new BatchReadCache<Row>({ ttlMs: 5_000, load: db.load });
    expect((await cache.getMany(["wh_x"])).size).toBe(0);
    expect((await cache.getMany(["wh_x"])).size).toBe(0);
    expect(db.loads).toHaveLength(1);
  });

  it("sees a change made elsewhere only after the TTL, one made here at once", async () => {
    let now = 1_000;
    const db = store([webhook("wh_1")]);
    const cache = new BatchReadCache<Row>({ ttlMs: 5_000, load: db.load, now: () => now });
    await cache.getMany(["wh_1"]);
    db.rows.set("wh_1", webhook("wh_1", false));
    expect((await cache.getMany(["wh_1"])).get("wh_1")?.enabled).toBe(true);
    now = 6_001;
    expect((await cache.getMany(["wh_1"])).get("wh_1")?.enabled).toBe(false);
    db.rows.set("wh_1", webhook("wh_1", true));
    cache.invalidate("wh_1");
    expect((await cache.getMany(["wh_1"])).get("wh_1")?.enabled).toBe(true);
  });

  it("shares a load under way, and does not keep one an invalidation overtook", async () => {
    const db = store([webhook("wh_1")]);
    const cache = new BatchReadCache<Row>({ ttlMs: 5_000, load: db.load });
    const release = db.hold();
    const first = cache.getMany(["wh_1"]);
    const second = cache.getMany(["wh_1"]);
    db.rows.set("wh_1", webhook("wh_1", false));
    cache.invalidate("wh_1");
    release();
    expect((await first).get("wh_1")?.enabled).toBe(true);
    expect((await second).get("wh_1")?.enabled).toBe(true);
    expect(db.loads).toHaveLength(1);
    // The load began before the update: it is not kept.
    expect((await cache.getMany(["wh_1"])).get("wh_1")?.enabled).toBe(false);
    expect(db.loads).toHaveLength(2);
  });

  it("passes a failed load to its callers and caches nothing", async () => {
    let fail = true;
    const cache = new BatchReadCache<Row>({
      ttlMs: 5_000,
      load: async (ids) => {
        if (fail) throw new Error("database away");
        return new Map(ids.map((id) => [id, webhook(id)]));
      },
    });
    await expect(cache.getMany(["wh_1"])).rejects.toThrow("database away");
    fail = false;
    expect((await cache.getMany(["wh_1"])).has("wh_1")).toBe(true);
  });

  it("reads every time with a TTL of 0", async () => {
    const db = store([webhook("wh_1")]);
    const cache = new BatchReadCache<Row>({ ttlMs: 0, load: db.load });
    await cache.getMany(["wh_1"]);
    await cache.getMany(["wh_1"]);
    expect(db.loads).toHaveLength(2);
  });

  it("keeps at most maxEntries, dropping the least recently used", async () => {
    const db = store([webhook("wh_1"), webhook("wh_2"), webhook("wh_3")]);
    const cache = new BatchReadCache<Row>({ ttlMs: 5_000, load: db.load, maxEntries: 2 });
    await cache.getMany(["wh_1"]);
    await cache.getMany(["wh_2"]);
    await cache.getMany(["wh_3"]);
    await cache.getMany(["wh_2", "wh_3"]);
    expect(db.loads).toHaveLength(3);
    await cache.getMany(["wh_1"]);
    expect(db.loads).toHaveLength(4);
  });

  it("keeps at most maxSize in all by each value's size, and no value larger than that", async () => {
    const sizes: Record<string, number> = { wh_1: 40, wh_2: 40, wh_3: 40, wh_big: 101 };
    const db = store(Object.keys(sizes).map((id) => webhook(id)));
    const cache = new BatchReadCache<Row>({
      ttlMs: 5_000,
      load: db.load,
      maxSize: 100,
      sizeOf: (row) => (row ? (sizes[row.id] ?? 1) : 1),
    });
    await cache.getMany(["wh_1", "wh_2"]);
    await cache.getMany(["wh_1", "wh_2"]);
    expect(db.loads).toHaveLength(1);
    // A third of 40 passes 100: the least recently used (wh_1, read before wh_2) goes.
    await cache.getMany(["wh_3"]);
    await cache.getMany(["wh_2", "wh_3"]);
    expect(db.loads).toHaveLength(2);
    await cache.getMany(["wh_1"]);
    expect(db.loads).toHaveLength(3);
    await cache.getMany(["wh_big"]);
    await cache.getMany(["wh_big"]);
    expect(db.loads).toHaveLength(5);
  });
});
