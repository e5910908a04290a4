import type { PgPool } from "@pulsegate/db";
import type { Logger } from "@pulsegate/runtime/logger";
import type { SilenceService } from "../silences/silence-service.ts";
import type { WebhookService } from "../webhooks/webhook-service.ts";
import { OpenKeys } from "./open-keys.ts";
import { anyResolved, type ResolveByKeyItem, type ResolveByKeyResult, resolveAlertsByKey } from "./resolve-by-key.ts";
import { previewTriggers, type TriggerItem, type TriggerResult, triggerAlerts } from "./trigger-alerts.ts";

/**
 * Triggers and resolves by key with what they leave behind: the keys the batches learn are open
 * (OpenKeys, kept per process), and, after a commit that wrote outbox events, a nudge so the
 * dispatcher looks at once.
 */
export class TriggerService {
  readonly #pool: PgPool;
  readonly #webhooks: WebhookService;
  readonly #log: Logger;
  readonly #silences: SilenceService | undefined;
  readonly #onOutboxWritten: () => void;
  readonly #openKeys = new OpenKeys();

  constructor(options: {
    pool: PgPool;
    webhooks: WebhookService;
    log: Logger;
    silences?: SilenceService | undefined;
    onOutboxWritten: () => void;
  }) {
    this.#pool = options.pool;
    this.#webhooks = options.webhooks;
    this.#log = options.log;
    this.#silences = options.silences;
    this.#onOutboxWritten = options.onOutboxWritten;
  }

  async trigger(items: TriggerItem[]): Promise<TriggerResult[]> {
    const results = await triggerAlerts(this.#pool, this.#webhooks, items, {
      log: this.#log,
      openKeys: this.#openKeys,
      silences: this.#silences,
    });
    if (results.some((result) => result.outcome === "created" || result.outcome === "reopened")) {
      this.#onOutboxWritten();
    }
    return results;
  }

  preview(items: TriggerItem[]): Promise<TriggerResult[]> {
    return previewTriggers(this.#pool, this.#webhooks, items, { silences: this.#silences });
  }

  async resolveByKey(items: ResolveByKeyItem[], dryRun: boolean): Promise<ResolveByKeyResult[]> {
    const results = await resolveAlertsByKey(this.#pool, this.#webhooks, items, { dryRun });
    if (anyResolved(results) && !dryRun) this.#onOutboxWritten();
    return results;
  }
}
