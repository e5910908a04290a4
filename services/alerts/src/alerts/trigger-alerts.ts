import type { EntityManager, Orm } from "@pulsegate/db";
import { alertsErrors } from "../errors.ts";
import { evaluateFilterRules } from "../filter-rules/index.ts";
import type { Severity } from "../severity.ts";
import type { WebhookService } from "../webhooks/webhook-service.ts";
import { WEBHOOK_LIMITS } from "../webhooks/webhook-settings.ts";
import type { AlertSource } from "./alert-row.ts";
import { type FoldInput, type FoldResult, foldTriggers } from "./fold-trigger.ts";

export type TriggerItem = {
  teamId: string;
  source: AlertSource;
  sourceId: string;
  title: string;
  description: string;
  /** Undefined: the webhook's default severity. */
  severity: Severity | undefined;
  metadataJson: string | null;
  groupKey: string | null;
  alertQuotaMonthly: number;
  /** Used for monitor sources only; a webhook's own setting applies to webhook sources. */
  reopenWindowSeconds: number;
};

export type TriggerResult = FoldResult | { outcome: "filtered"; reason: string } | { outcome: "source_not_found" };

/**
 * Applies a batch of triggers: each is checked against its webhook (exists,
 * same team, enabled) and its filter rules; the accepted ones are folded, the
 * triggers of one group key together (see foldTriggers). Results come back in
 * the order of the items.
 */
export async function triggerAlerts(
  orm: Orm,
  webhooks: WebhookService,
  items: TriggerItem[],
  now: () => Date = () => new Date(),
): Promise<TriggerResult[]> {
  const webhookIds = items.filter((item) => item.source === "webhook").map((item) => item.sourceId);
  const byId = await webhooks.findMany([...new Set(webhookIds)]);
  const results: TriggerResult[] = new Array(items.length);
  const toFold: { index: number; input: FoldInput }[] = [];
  const receivedAt = now();
  items.forEach((item, index) => {
    const metadata = parseMetadata(item.metadataJson);
    let severity: Severity = item.severity ?? WEBHOOK_LIMITS.defaultSeverity;
    let reopenWindowSeconds = item.reopenWindowSeconds;
    if (item.source === "webhook") {
      const webhook = byId.get(item.sourceId);
      if (!webhook || webhook.teamId !== item.teamId || !webhook.enabled) {
        results[index] = { outcome: "source_not_found" };
        return;
      }
      severity = item.severity ?? webhook.defaultSeverity;
      reopenWindowSeconds = webhook.reopenWindowSeconds;
      const verdict = evaluateFilterRules(webhook.filterRules, { title: item.title, severity, metadata });
      if (!verdict.accepted) {
        results[index] = { outcome: "filtered", reason: verdict.reason };
        return;
      }
    }
    toFold.push({
      index,
      input: {
        teamId: item.teamId,
        source: item.source,
        sourceId: item.sourceId,
        title: item.title,
        description: item.description,
        severity,
        metadataJson: item.metadataJson,
        groupKey: item.groupKey,
        reopenWindowSeconds,
        alertQuotaMonthly: item.alertQuotaMonthly,
        receivedAt,
      },
    });
  });
  const folded = await foldTriggers(
    orm.em.fork() as EntityManager,
    toFold.map((entry) => entry.input),
  );
  toFold.forEach((entry, position) => {
    results[entry.index] = folded[position] as FoldResult;
  });
  return results;
}

function parseMetadata(json: string | null): unknown {
  if (json === null) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    throw alertsErrors.invalid([{ field: "metadata", message: "metadata must be valid JSON." }]);
  }
}
