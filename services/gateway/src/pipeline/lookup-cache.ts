type Entry<V> = { value: V; expiresAt: number };

export type LookupCache<V> = {
  get: (key: string) => Promise<V>;
  invalidate: (key: string) => void;
};

/**
 * Caches the results of `load` (found or not: a negative result is a value
 * too) for `ttlMs`, and shares one in-flight load among concurrent callers of
 * the same key. Failures are not cached. At most `maxEntries` are kept, oldest
 * dropped first, so random tokens sent by strangers cannot grow memory.
 */
export function createLookupCache<V>(options: {
  ttlMs: number;
  maxEntries?: number;
  load: (key: string) => Promise<V>;
  now?: () => number;
}): LookupCache<V> {
  const { ttlMs, load, maxEntries = 10_000, now = Date.now } = options;
  const entries = new Map<string, Entry<V>>();
  const inFlight = new Map<string, Promise<V>>();

  const store = (key: string, value: V) => {
    if (ttlMs <= 0) return;
    entries.delete(key);
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
    entries.set(key, { value, expiresAt: now() + ttlMs });
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
          throw error;
        },
      );
      inFlight.set(key, loading);
      return loading;
    },
    invalidate: (key) => {
      entries.delete(key);
    },
  };
}
