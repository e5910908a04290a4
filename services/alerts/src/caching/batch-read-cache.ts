import { LRUCache } from "lru-cache";

/** A key read and found to have no value is kept too: lru-cache keeps no `undefined`, so it is boxed. */
type Entry<V> = { value: V | null };

export type BatchReadCacheOptions<V> = {
  /** How long a read (found or not) is used; 0 reads every time. */
  ttlMs: number;
  /** Reads the values of these keys (absent ones have none). */
  load: (keys: string[]) => Promise<Map<string, V>>;
  /** At most this many keys are kept, the least recently used out first. */
  maxEntries?: number;
  /** With `sizeOf`: at most this much in all (an entry larger than this is not kept). */
  maxSize?: number;
  /** A value's share of `maxSize` (null: a key read and found to have none). */
  sizeOf?: (value: V | null) => number;
  /** A clock in ms for tests; it must not read 0 (lru-cache takes a start of 0 for "no TTL"). */
  now?: () => number;
};

/**
 * What trigger batches read by key (webhooks by id, silences by team), so a batch does not read
 * it again: each read is kept for `ttlMs`, keys without a value too, and the misses of a batch
 * are read in one load that concurrent batches share. A change through this process invalidates
 * at once (a load already under way is not kept); other replicas see it within `ttlMs`. Bounded
 * by count and, given `sizeOf`, by size: least recently used out first.
 */
export class BatchReadCache<V> {
  readonly #ttlMs: number;
  readonly #load: (keys: string[]) => Promise<Map<string, V>>;
  readonly #entries: LRUCache<string, Entry<V>>;
  readonly #loading = new Map<string, Promise<V | null>>();
  /** Bumped by every invalidation: a load that started before one is not stored. */
  #generation = 0;

  constructor(options: BatchReadCacheOptions<V>) {
    this.#ttlMs = options.ttlMs;
    this.#load = options.load;
    const { sizeOf, maxSize, now } = options;
    this.#entries = new LRUCache<string, Entry<V>>({
      max: options.maxEntries ?? 10_000,
      ttl: Math.max(1, options.ttlMs),
      // A clock of its own (a test's) is read at every check, not once a millisecond.
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
      ...(sizeOf && maxSize !== undefined
        ? { maxSize, sizeCalculation: (entry: Entry<V>) => Math.max(1, Math.ceil(sizeOf(entry.value))) }
        : {}),
    });
  }

  async getMany(keys: readonly string[]): Promise<Map<string, V>> {
    const found = new Map<string, V>();
    const waiting: Promise<void>[] = [];
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      const entry = this.#entries.get(key);
      if (entry) {
        if (entry.value !== null) found.set(key, entry.value);
        continue;
      }
      const pending = this.#loading.get(key);
      if (pending) {
        waiting.push(
          pending.then((value) => {
            if (value !== null) found.set(key, value);
          }),
        );
      } else missing.push(key);
    }
    if (missing.length > 0) waiting.push(this.#read(missing, found));
    await Promise.all(waiting);
    return found;
  }

  invalidate(key: string): void {
    this.#generation += 1;
    this.#entries.delete(key);
    this.#loading.delete(key);
  }

  async #read(keys: string[], found: Map<string, V>): Promise<void> {
    const generation = this.#generation;
    const loaded = this.#load(keys);
    for (const key of keys) {
      const one = loaded.then((byKey) => byKey.get(key) ?? null);
      this.#loading.set(key, one);
      // Failures reach this batch's caller through `loaded`; waiters get them through `one`.
      one
        .catch(() => undefined)
        .finally(() => {
          if (this.#loading.get(key) === one) this.#loading.delete(key);
        });
    }
    const byKey = await loaded;
    for (const key of keys) {
      const value = byKey.get(key) ?? null;
      if (value !== null) found.set(key, value);
      if (this.#ttlMs > 0 && generation === this.#generation) this.#entries.set(key, { value });
    }
  }
}
