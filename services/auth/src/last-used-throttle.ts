import { LRUCache } from "lru-cache";

/** How often "last used" is written back per key or secret: using one must not write per request. */
const WRITE_INTERVAL_MS = 60_000;
/** A bound on the throttle's memory; forgetting a key only costs an extra write. */
const MAX_TRACKED = 100_000;

/** When a key's (or a team secret's) "last used" is due to be written again: at most once a minute each. */
export class LastUsedThrottle {
  /** When each key was last written; past MAX_TRACKED the least recently used go. */
  readonly #written = new LRUCache<string, number>({ max: MAX_TRACKED });

  /** True, and remembered, when `key` was not written in the minute before `now` (ms since the epoch). */
  due(key: string, now: number): boolean {
    if (now - (this.#written.get(key) ?? 0) < WRITE_INTERVAL_MS) return false;
    this.#written.set(key, now);
    return true;
  }
}
