import { randomUUID } from "node:crypto";
import { WEBHOOK_LIMITS } from "@pulsegate/contract/limits";
import { newUrlToken } from "@pulsegate/contract/text";
import { type EntityManager, LockMode, type Orm, onUniqueViolation } from "@pulsegate/db";
import { BatchReadCache } from "../caching/batch-read-cache.ts";
import { alertsErrors } from "../errors.ts";
import { bearerTokenMatches, issueBearerToken } from "./bearer-token.ts";
import type { TriggerWebhook } from "./trigger-webhook.ts";
import { type Webhook, WebhookSchema } from "./webhook.entity.ts";
import { checkWebhookSettings, sourceProblems, type WebhookSettingsInput } from "./webhook-settings.ts";

/** A team's webhooks have unique names (docs/decisions.md, "Names"); the loser of a race is a conflict. */
const nameTaken = onUniqueViolation("webhooks_team_name_key", () => alertsErrors.nameTaken("webhook"));

/** A webhook as created: Alertmanager ones come with their bearer token, shown this once. */
export type CreatedWebhook = { webhook: Webhook; bearerToken: string | null };

/** A webhook's bearer token after a rotation: the new token (shown once), and until when the old one works. */
export type RotatedBearerToken = { webhook: Webhook; bearerToken: string; previousValidUntil: Date | null };

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

  async create(teamId: string, input: WebhookSettingsInput): Promise<CreatedWebhook> {
    if (!teamId) throw alertsErrors.invalid([{ field: "teamId", message: "teamId is required." }]);
    const { settings, errors } = checkWebhookSettings({ ...input, name: input.name ?? "" });
    const source = settings.source ?? "signed";
    errors.push(...sourceProblems(source, settings));
    if (errors.length > 0) throw alertsErrors.invalid(errors);
    const em = this.#em();
    const now = this.#now();
    const issued = source === "alertmanager" ? issueBearerToken() : null;
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
      source,
      // Stored for every webhook (the column's rule); an Alertmanager webhook's is never read.
      signatureScheme: settings.signatureScheme ?? "pulsegate",
      bearerTokenHash: issued?.hash ?? null,
      previousBearerTokenHash: null,
      previousBearerTokenValidUntil: null,
      createdAt: now,
      updatedAt: now,
    });
    await em.flush().catch(nameTaken);
    this.#cache.invalidate(webhook.id);
    return { webhook, bearerToken: issued?.token ?? null };
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
    const problems = sourceProblems(webhook.source, settings);
    if (problems.length > 0) throw alertsErrors.invalid(problems);
    Object.assign(webhook, settings, { updatedAt: this.#now() });
    await em.flush().catch(nameTaken);
    this.#cache.invalidate(id);
    return webhook;
  }

  /**
   * Gone at once (its URL is unknown from now on, here and through every replica's look-up); the
   * alerts it opened are kept, as the team's history (docs/decisions.md, "Deleting"). The webhook
   * as it was.
   */
  async delete(id: string): Promise<Webhook> {
    const webhook = await this.#orm.em.fork().transactional(async (em) => {
      const found = await em.findOne(WebhookSchema, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) throw alertsErrors.webhookNotFound();
      await em.nativeDelete(WebhookSchema, { id });
      return found;
    });
    this.#cache.invalidate(id);
    return webhook;
  }

  /**
   * A new bearer token for an Alertmanager webhook. The one it replaces keeps working for
   * `graceSeconds` (default and bounds: WEBHOOK_LIMITS), so Alertmanager's configuration can be
   * changed without refusing a page in between; a token replaced before is dropped at once.
   */
  async rotateBearerToken(id: string, graceSeconds: number | undefined): Promise<RotatedBearerToken> {
    const { defaultBearerTokenGraceSeconds, maxBearerTokenGraceSeconds } = WEBHOOK_LIMITS;
    const grace = graceSeconds ?? defaultBearerTokenGraceSeconds;
    if (!Number.isInteger(grace) || grace < 0 || grace > maxBearerTokenGraceSeconds) {
      throw alertsErrors.invalid([
        {
          field: "graceSeconds",
          message: `graceSeconds must be a whole number from 0 to ${maxBearerTokenGraceSeconds}.`,
        },
      ]);
    }
    const em = this.#em();
    const webhook = await em.findOne(WebhookSchema, { id });
    if (!webhook) throw alertsErrors.webhookNotFound();
    if (webhook.source !== "alertmanager") throw alertsErrors.noBearerToken();
    const now = this.#now();
    const issued = issueBearerToken();
    const previousValidUntil = grace > 0 ? new Date(now.getTime() + grace * 1_000) : null;
    Object.assign(webhook, {
      bearerTokenHash: issued.hash,
      previousBearerTokenHash: previousValidUntil ? webhook.bearerTokenHash : null,
      previousBearerTokenValidUntil: previousValidUntil,
      updatedAt: now,
    });
    await em.flush();
    return { webhook, bearerToken: issued.token, previousValidUntil };
  }

  /**
   * The webhook with that URL token (null when unknown; disabled and signed ones as they are), and
   * whether `bearerToken` is its current token or, within the grace window, its previous one.
   * Read afresh every time: a rotation or a disable takes effect at once.
   */
  async authenticate(
    webhookUrl: string,
    bearerToken: string,
  ): Promise<{ webhook: Webhook | null; tokenValid: boolean }> {
    const webhook = await this.lookup(webhookUrl);
    if (webhook?.source !== "alertmanager") return { webhook, tokenValid: false };
    // Both compared whatever the first answers, so the time taken says nothing about which matched.
    const current = bearerTokenMatches(bearerToken, webhook.bearerTokenHash);
    const previous =
      bearerTokenMatches(bearerToken, webhook.previousBearerTokenHash) &&
      webhook.previousBearerTokenValidUntil !== null &&
      webhook.previousBearerTokenValidUntil !== undefined &&
      this.#now() < webhook.previousBearerTokenValidUntil;
    return { webhook, tokenValid: current || previous };
  }

  async list(teamId: string): Promise<Webhook[]> {
    return this.#em().find(WebhookSchema, { teamId }, { orderBy: { createdAt: "asc", id: "asc" } });
  }

  /** By the token of the public URL; null when unknown. Disabled webhooks are returned as such. */
  async lookup(webhookUrl: string): Promise<Webhook | null> {
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
