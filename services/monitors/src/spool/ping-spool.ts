import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { type PingItem, pingItemFromJson, pingItemToJson } from "../pings/ping-item.ts";

export type SpoolEntry = { entryId: string; item: PingItem };

/** An entry whose text is no ping (corrupted, or written by something else): only its text is kept. */
export type UnreadableSpoolEntry = { entryId: string; text: string };

const FIELD = "ping";
const DRAIN_LOCK_MS = 30_000;

/** Deletes the lock only while it is still ours. */
const RELEASE_LOCK = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
`;

/**
 * The ping spool: a Redis stream that keeps pings, in arrival order, while
 * PostgreSQL is unreachable (DESIGN §5). Entries are deleted only after the
 * drain worker has committed them. Keys are namespaced by the database, so
 * deployments (or test stacks) sharing one Redis never drain each other's.
 */
export class PingSpool {
  readonly #redis: Redis | null;
  readonly #key: string;

  constructor(redis: Redis | null, databaseUrl: string) {
    this.#redis = redis;
    const database = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, "")) || "postgres";
    this.#key = `pulsegate:monitors:{${database}}:ping-spool`;
  }

  /** False when no Redis is configured: then nothing can be spooled. */
  get configured(): boolean {
    return this.#redis !== null;
  }

  get key(): string {
    return this.#key;
  }

  /** Appends one ping; rejects when Redis cannot take it. */
  async append(item: PingItem): Promise<string> {
    const id = await this.#client().xadd(this.#key, "*", FIELD, pingItemToJson(item));
    if (!id) throw new Error("XADD returned no entry id");
    return id;
  }

  /** Redis's persistence settings (CONFIG GET); rejects where CONFIG is refused (some managed services). */
  async persistence(): Promise<{ appendonly: string; appendfsync: string }> {
    const redis = this.#client();
    const [appendonly, appendfsync] = await Promise.all([
      redis.config("GET", "appendonly") as Promise<string[]>,
      redis.config("GET", "appendfsync") as Promise<string[]>,
    ]);
    return { appendonly: appendonly[1] ?? "", appendfsync: appendfsync[1] ?? "" };
  }

  async length(): Promise<number> {
    return this.#client().xlen(this.#key);
  }

  /** How many pings wait, and how old the oldest is (its entry id is its arrival in ms): one round trip. */
  async backlog(now: number = Date.now()): Promise<{ depth: number; oldestAgeSeconds: number }> {
    const results = await this.#client().multi().xlen(this.#key).xrange(this.#key, "-", "+", "COUNT", 1).exec();
    const depth = Number(results?.[0]?.[1] ?? 0);
    const first = (results?.[1]?.[1] as [string, string[]][] | undefined)?.[0]?.[0];
    const arrived = first ? Number(first.split("-")[0]) : Number.NaN;
    return { depth, oldestAgeSeconds: Number.isFinite(arrived) ? Math.max(0, (now - arrived) / 1000) : 0 };
  }

  /**
   * The oldest `count` entries, in arrival order, and apart from them those whose text is no ping:
   * one unreadable entry must not stop the drain from reading the entries behind it.
   */
  async oldest(count: number): Promise<{ entries: SpoolEntry[]; unreadable: UnreadableSpoolEntry[] }> {
    const read = (await this.#client().xrange(this.#key, "-", "+", "COUNT", count)) as [string, string[]][];
    const entries: SpoolEntry[] = [];
    const unreadable: UnreadableSpoolEntry[] = [];
    for (const [entryId, fields] of read) {
      const index = fields.indexOf(FIELD);
      const text = index === -1 ? "" : (fields[index + 1] ?? "");
      const item = pingItemFromJson(text);
      if (item) entries.push({ entryId, item });
      else unreadable.push({ entryId, text });
    }
    return { entries, unreadable };
  }

  async remove(entryIds: string[]): Promise<void> {
    if (entryIds.length > 0) await this.#client().xdel(this.#key, ...entryIds);
  }

  /** Moves an entry that can never be applied aside, with the reason, so the drain goes on. */
  async deadLetter(entry: SpoolEntry | UnreadableSpoolEntry, reason: string): Promise<void> {
    const text = "item" in entry ? pingItemToJson(entry.item) : entry.text;
    await this.#client()
      .multi()
      .xadd(`${this.#key}:dead`, "*", FIELD, text, "reason", reason, "entry", entry.entryId)
      .xdel(this.#key, entry.entryId)
      .exec();
  }

  /** Runs `work` while holding the drain lock (one drainer at a time keeps the order); false if another holds it. */
  async withDrainLock(work: () => Promise<void>): Promise<boolean> {
    const redis = this.#client();
    const lockKey = `${this.#key}:drain-lock`;
    const token = randomUUID();
    if ((await redis.set(lockKey, token, "PX", DRAIN_LOCK_MS, "NX")) !== "OK") return false;
    try {
      await work();
    } finally {
      await redis.eval(RELEASE_LOCK, 1, lockKey, token).catch(() => undefined);
    }
    return true;
  }

  #client(): Redis {
    if (!this.#redis) throw new Error("no Redis is configured for the ping spool");
    return this.#redis;
  }
}
