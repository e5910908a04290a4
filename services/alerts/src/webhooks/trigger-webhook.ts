import type { Severity } from "@pulsegate/vocabulary";
import type { FilterRule } from "../filter-rules/index.ts";

/** What a trigger needs of its webhook. */
export type TriggerWebhook = {
  id: string;
  teamId: string;
  enabled: boolean;
  defaultSeverity: Severity;
  filterRules: FilterRule[];
  reopenWindowSeconds: number;
  /** null or absent: no reminders. */
  repeatIntervalSeconds?: number | null;
};

type Entry = { webhook: TriggerWebhook | null; expiresAt: number };

export type WebhookCacheOptions = {
  /** How long a read (found or not) is used; 0 reads every time. */
  ttlMs: number;
  /** Reads the webhooks with these ids (absent ones are unknown). */
  load: (ids: string[]) => Promise<Map<string, TriggerWebhook>>;
  maxEntries?: number;
  now?: () => number;
};

/**
 * Webhooks by id for trigger batches, so a batch does not read them again:
 * each is kept for `ttlMs`, unknown ids too, and the misses of a batch are
 * read in one load that concurrent batches share. An update through this
 * process invalidates at once (a load already under way is not kept); other
 * replicas see it within `ttlMs`. At most `maxEntries` are kept, oldest first out.
 */
export class WebhookCache {
  readonly #options: Required<WebhookCacheOptions>;
  readonly #entries = new Map<string, Entry>();
  readonly #loading = new Map<string, Promise<TriggerWebhook | null>>();
  /** Bumped by every invalidation: a load that started before one is not stored. */
  #generation = 0;

  constructor(options: WebhookCacheOptions) {
    this.#options = { maxEntries: 10_000, now: Date.now, ...options };
  }

  async getMany(ids: readonly string[]): Promise<Map<string, TriggerWebhook>> {
    const now = this.#options.now();
    const found = new Map<string, TriggerWebhook>();
    const waiting: Promise<void>[] = [];
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const entry = this.#entries.get(id);
      if (entry && entry.expiresAt > now) {
        if (entry.webhook) found.set(id, entry.webhook);
        continue;
      }
      const pending = this.#loading.get(id);
      if (pending) {
        waiting.push(
          pending.then((webhook) => {
            if (webhook) found.set(id, webhook);
          }),
        );
      } else missing.push(id);
    }
    if (missing.length > 0) waiting.push(this.#load(missing, found));
    await Promise.all(waiting);
    return found;
  }

  invalidate(id: string): void {
    this.#generation += 1;
    this.#entries.delete(id);
    this.#loading.delete(id);
  }

  async #load(ids: string[], found: Map<string, TriggerWebhook>): Promise<void> {
    const generation = this.#generation;
    const loaded = this.#options.load(ids);
    for (const id of ids) {
      const one = loaded.then((byId) => byId.get(id) ?? null);
      this.#loading.set(id, one);
      // Failures reach this batch's caller through `loaded`; waiters get them through `one`.
      one
        .catch(() => undefined)
        .finally(() => {
          if (this.#loading.get(id) === one) this.#loading.delete(id);
        });
    }
    const byId = await loaded;
    const expiresAt = this.#options.now() + this.#options.ttlMs;
    for (const id of ids) {
      const webhook = byId.get(id) ?? null;
      if (webhook) found.set(id, webhook);
      if (this.#options.ttlMs > 0 && generation === this.#generation) this.#store(id, { webhook, expiresAt });
    }
  }

  #store(id: string, entry: Entry): void {
    this.#entries.delete(id);
    if (this.#entries.size >= this.#options.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(id, entry);
  }
}
