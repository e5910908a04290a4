import { randomUUID } from "node:crypto";
import type { EntityManager, Orm } from "@pulsegate/db";
import { WEBHOOK_LIMITS } from "@pulsegate/limits";
import { newUrlToken } from "@pulsegate/text";
import { BatchReadCache } from "../caching/batch-read-cache.ts";
import { alertsErrors } from "../errors.ts";
import type { TriggerWebhook } from "./trigger-webhook.ts";
import { type Webhook, WebhookSchema } from "./webhook.entity.ts";
import { checkWebhookSettings, type WebhookSettingsInput } from "./webhook-settings.ts";

export type WebhookServiceOptions = {
  /** How long trigger batches use a webhook read (WEBHOOK_CACHE_MS); 0: read every time. */
  cacheMs?: number;
  now?: () => Date;
  /** The cache's clock (tests). */
  cacheNow?: () => number;
};

export class WebhookService {
  readonly #orm: Orm;
  readonly #now: () => Date;
  readonly #cache: BatchReadCache<TriggerWebhook>;

  constructor(orm: Orm, options: WebhookServiceOptions = {}) {
    this.#orm = orm;
    this.#now = options.now ?? (() => new Date());
    this.#cache = new BatchReadCache<TriggerWebhook>({
      ttlMs: options.cacheMs ?? 0,
      load: async (ids) => {
        const rows = await this.findMany(ids);
        return new Map([...rows].map(([id, webhook]) => [id, forTriggers(webhook)]));
      },
      ...(options.cacheNow ? { now: options.cacheNow } : {}),
    });
  }

  async create(teamId: string, input: WebhookSettingsInput): Promise<Webhook> {
    if (!teamId) throw alertsErrors.invalid([{ field: "teamId", message: "teamId is required." }]);
    const { settings, errors } = checkWebhookSettings({ ...input, name: input.name ?? "" });
    if (errors.length > 0) throw alertsErrors.invalid(errors);
    const em = this.#em();
    const now = this.#now();
    const webhook = em.create(WebhookSchema, {
      id: `wh_${randomUUID().replaceAll("-", "")}`,
      teamId,
      webhookUrl: newUrlToken(),
      name: settings.name ?? "",
      defaultSeverity: settings.defaultSeverity ?? WEBHOOK_LIMITS.defaultSeverity,
      enabled: settings.enabled ?? true,
      filterRules: settings.filterRules ?? [],
      rateLimitPerMinute: settings.rateLimitPerMinute ?? WEBHOOK_LIMITS.defaultRateLimitPerMinute,
      reopenWindowSeconds: settings.reopenWindowSeconds ?? WEBHOOK_LIMITS.defaultReopenWindowSeconds,
      repeatIntervalSeconds: settings.repeatIntervalSeconds ?? null,
      requireTimestamp: settings.requireTimestamp ?? false,
      signatureScheme: settings.signatureScheme ?? "pulsegate",
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    this.#cache.invalidate(webhook.id);
    return webhook;
  }

  async get(id: string): Promise<Webhook> {
    const webhook = await this.#em().findOne(WebhookSchema, { id });
    if (!webhook) throw alertsErrors.webhookNotFound();
    return webhook;
  }

  async update(id: string, input: WebhookSettingsInput): Promise<Webhook> {
    const { settings, errors } = checkWebhookSettings(input);
    if (errors.length > 0) throw alertsErrors.invalid(errors);
    const em = this.#em();
    const webhook = await em.findOne(WebhookSchema, { id });
    if (!webhook) throw alertsErrors.webhookNotFound();
    Object.assign(webhook, settings, { updatedAt: this.#now() });
    await em.flush();
    this.#cache.invalidate(id);
    return webhook;
  }

  async list(teamId: string): Promise<Webhook[]> {
    return this.#em().find(WebhookSchema, { teamId }, { orderBy: { createdAt: "asc", id: "asc" } });
  }

  /** By the token of the public URL; null when unknown. Disabled webhooks are returned as such. */
  async resolve(webhookUrl: string): Promise<Webhook | null> {
    return this.#em().findOne(WebhookSchema, { webhookUrl });
  }

  async findMany(ids: string[]): Promise<Map<string, Webhook>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#em().find(WebhookSchema, { id: { $in: ids } });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** For trigger batches: through the cache (see BatchReadCache); unknown ids are absent. */
  async findForTriggers(ids: string[]): Promise<Map<string, TriggerWebhook>> {
    return ids.length === 0 ? new Map() : this.#cache.getMany(ids);
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}

function forTriggers(webhook: Webhook): TriggerWebhook {
  return {
    id: webhook.id,
    teamId: webhook.teamId,
    enabled: webhook.enabled,
    defaultSeverity: webhook.defaultSeverity,
    filterRules: webhook.filterRules,
    reopenWindowSeconds: webhook.reopenWindowSeconds,
    repeatIntervalSeconds: webhook.repeatIntervalSeconds ?? null,
  };
}
