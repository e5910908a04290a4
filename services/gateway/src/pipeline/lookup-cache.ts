type Entry<V> = { value: V; expiresAt: number };

export type LookupCache<V> = {
  get: (key: string) => Promise<V>;
  invalidate: (key: string) => void;
  /** Forgets every value `matches` (a deleted team's): one pass over the entries, for rare changes. */
  invalidateWhere: (matches: (value: V) => boolean) => void;
  /** Forgets everything (changes may have gone unannounced). */
  clear: () => void;
};

export type LookupCacheOptions<V> = {
  /** How long a found value is reused. */
  ttlMs: number;
  /** How long "not found" (undefined) is reused; default ttlMs. Short, so a new resource is seen soon. */
  negativeTtlMs?: number;
  maxEntries?: number;
  /** When a load fails, answer with the expired value if one is still held (a peer is down). */
  staleOnError?: boolean;
  load: (key: string) => Promise<V>;
  now?: () => number;
};

/**
 * Caches the results of `load` (found or not: a negative result is a value
 * too, kept for `negativeTtlMs`) and shares one in-flight load among
 * concurrent callers of the same key. Failures are not cached. At most
 * `maxEntries` are kept, the oldest loaded dropped first (sized for every
 * active key, so this is rare; a hit costs no reordering), so random tokens
 * sent by strangers cannot grow memory.
 */
export function createLookupCache<V>(options: LookupCacheOptions<V>): LookupCache<V> {
  const { ttlMs, load, maxEntries = 10_000, now = Date.now, staleOnError = false } = options;
  const negativeTtlMs = options.negativeTtlMs ?? ttlMs;
  const entries = new Map<string, Entry<V>>();
  const inFlight = new Map<string, Promise<V>>();

  const store = (key: string, value: V) => {
    const ttl = value === undefined ? negativeTtlMs : ttlMs;
    if (ttl <= 0) return;
    entries.delete(key);
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
    entries.set(key, { value, expiresAt: now() + ttl });
  };

  return {
    get: (key) => {
      const entry = entries.get(key);
      if (entry && entry.expiresAt > now()) return Promise.resolve(entry.value);
      const pending = inFlight.get(key);
      if (pending) return pending;
      const loading = load(key).then(
        (value) => {
          inFlight.delete(key);
          store(key, value);
          return value;
        },
        (error: unknown) => {
          inFlight.delete(key);
          const stale = entries.get(key);
          if (staleOnError && stale && stale.value !== undefined) return stale.value;
          throw error;
        },
      );
      inFlight.set(key, loading);
      return loading;
    },
    invalidate: (key) => {
      entries.delete(key);
    },
    invalidateWhere: (matches) => {
      for (const [key, entry] of entries) if (matches(entry.value)) entries.delete(key);
    },
    clear: () => entries.clear(),
  };
}
