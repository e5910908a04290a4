import { LRUCache } from "lru-cache";

/** lru-cache keeps no `undefined`: values are boxed, so "not found" is kept like any other answer. */
type Box<V> = { value: V };

export type LookupCache<V> = {
  get: (key: string) => Promise<V>;
  invalidate: (key: string) => void;
  /** Forgets every value `matches` (a deleted team's): one pass over the entries, for rare changes. */
  invalidateWhere: (matches: (value: V) => boolean) => void;
  /** Forgets everything (changes may have gone unannounced). */
  clear: () => void;
};

export type LookupCacheOptions<V> = {
  /** How long a found value is reused; 0: never. */
  ttlMs: number;
  /** How long "not found" (undefined) is reused; default ttlMs. Short, so a new resource is seen soon. */
  negativeTtlMs?: number;
  maxEntries?: number;
  /** When a load fails, answer with the expired value if one is still held (a peer is down). */
  staleOnError?: boolean;
  load: (key: string) => Promise<V>;
  /** A clock in ms for tests; it must not read 0 (lru-cache takes a start of 0 for "no TTL"). */
  now?: () => number;
};

/**
 * Caches the results of `load` (found or not: a negative result is a value
 * too, kept for `negativeTtlMs`) on lru-cache, whose `fetch` shares one
 * in-flight load among concurrent callers of the same key. Failures are not
 * cached. At most `maxEntries` are kept, the least recently used dropped first,
 * so random tokens sent by strangers cannot grow memory.
 */
export function createLookupCache<V>(options: LookupCacheOptions<V>): LookupCache<V> {
  const { ttlMs, load, maxEntries = 10_000, staleOnError = false } = options;
  const negativeTtlMs = options.negativeTtlMs ?? ttlMs;
  const ttlOf = (value: V) => (value === undefined ? negativeTtlMs : ttlMs);
  const entries = new LRUCache<string, Box<V>>({
    max: maxEntries,
    // Every set names its own TTL (found or not); this default only satisfies the type.
    ttl: Math.max(1, ttlMs),
    // A clock of its own (a test's) is read at every check, not once a millisecond.
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    // An expired entry stays until replaced, for `staleOnError`; `get` never returns it.
    noDeleteOnStaleGet: staleOnError,
    // An invalidation during a load (a team changed) must not fail the callers waiting for it: they
    // get what it loaded, and lru-cache does not keep it, the entry having been deleted meanwhile.
    ignoreFetchAbort: true,
    fetchMethod: async (key, stale, { options: set }) => {
      try {
        const value = await load(key);
        set.ttl = Math.max(1, ttlOf(value));
        return { value };
      } catch (error) {
        if (!staleOnError || stale === undefined || stale.value === undefined) throw error;
        // Kept stale (1 ms), so the next look-up asks the peer again.
        set.ttl = 1;
        return stale;
      }
    },
  });

  const loadAndKeep = async (key: string): Promise<V> => {
    const box = await entries.fetch(key);
    // fetchMethod answers or throws: only an aborted fetch resolves empty, and none is aborted.
    if (box === undefined) throw new Error(`lookup of ${key} was aborted`);
    // A TTL of 0 keeps nothing: the load is still shared by the callers that were waiting for it.
    if (ttlOf(box.value) <= 0 && entries.peek(key, { allowStale: true }) === box) entries.delete(key);
    return box.value;
  };

  return {
    get: (key) => {
      const hit = entries.get(key);
      return hit ? Promise.resolve(hit.value) : loadAndKeep(key);
    },
    invalidate: (key) => {
      entries.delete(key);
    },
    invalidateWhere: (matches) => {
      const gone = [...entries.entries()].filter(([, box]) => matches(box.value)).map(([key]) => key);
      for (const key of gone) entries.delete(key);
    },
    clear: () => entries.clear(),
  };
}
