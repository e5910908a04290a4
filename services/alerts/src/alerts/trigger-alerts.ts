import { WEBHOOK_LIMITS } from "@pulsegate/contract/limits";
import { checkStoredText, type TextProblem } from "@pulsegate/contract/text";
import type { AlertSource, Severity } from "@pulsegate/contract/vocabulary";
import type { PgPool } from "@pulsegate/db";
import { evaluateFilterRules } from "../filter-rules/index.ts";
import { silencedBy } from "../silences/silence-matcher.ts";
import type { SilenceService } from "../silences/silence-service.ts";
import type { WebhookService } from "../webhooks/webhook-service.ts";
import type { IdempotencyKeyReused } from "./alert-idempotency-keys.ts";
import { type FoldInput, type FoldOptions, type FoldResult, foldTriggers } from "./fold-triggers.ts";
import { previewFold } from "./preview-fold.ts";

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
  /** The W3C traceparent of the request the trigger came from ("" or absent: none). */
  traceparent?: string;
  /** Reminder interval for monitor sources (0 or absent: none); a webhook's own setting applies to webhook sources. */
  repeatIntervalSeconds?: number;
  /** The request's Idempotency-Key and digest ("" or absent: none): a repeat is answered from the first. */
  idempotencyKey?: string;
  requestFingerprint?: string;
};

export type TriggerResult =
  | FoldResult
  | IdempotencyKeyReused
  | { outcome: "filtered"; reason: string }
  | { outcome: "source_not_found" }
  | { outcome: "invalid"; violations: TextProblem[] };

export type TriggerOptions = FoldOptions & {
  now?: () => Date;
  /** The teams' maintenance windows and silences: a matching alert is recorded but notifies nobody. */
  silences?: SilenceService | undefined;
};

/**
 * Applies a batch of triggers: each is checked for text that cannot be
 * stored, against its webhook (exists, same team, enabled; read through the
 * webhook cache) and its filter rules; the accepted ones are folded in one
 * transaction (see foldTriggers). A bad item gets its own "invalid" result and
 * never fails the others (a batch mixes teams). Results come back in the order
 * of the items.
 */
export async function triggerAlerts(
  pool: PgPool,
  webhooks: WebhookService,
  items: TriggerItem[],
  options: TriggerOptions = {},
): Promise<TriggerResult[]> {
  const { results, toFold } = await acceptTriggers(webhooks, items, (options.now ?? (() => new Date()))());
  await markSilenced(toFold, options.silences);
  const folded = await foldTriggers(
    pool,
    toFold.map((entry) => entry.input),
    options,
  );
  toFold.forEach((entry, position) => {
    results[entry.index] = folded[position] as TriggerResult;
  });
  return results;
}

/**
 * What triggerAlerts would answer for the same items, read without locking
 * or writing anything (a dry run): the same checks and filter rules, then
 * the decisions of a batch (plan-batch.ts) on what the database holds now.
 * An alert that would be created has no id yet ("").
 */
export async function previewTriggers(
  pool: PgPool,
  webhooks: WebhookService,
  items: TriggerItem[],
  options: { now?: () => Date; silences?: SilenceService | undefined } = {},
): Promise<TriggerResult[]> {
  const { results, toFold } = await acceptTriggers(webhooks, items, (options.now ?? (() => new Date()))());
  await markSilenced(toFold, options.silences);
  const previewed = await previewFold(
    pool,
    toFold.map((entry) => entry.input),
  );
  toFold.forEach((entry, position) => {
    results[entry.index] = previewed[position] as TriggerResult;
  });
  return results;
}

/**
 * Checks each item for text that cannot be stored, against its webhook
 * (exists, same team, enabled; read through the webhook cache) and its filter
 * rules. Answers the refused ones; the accepted ones are returned to fold.
 */
async function acceptTriggers(
  webhooks: WebhookService,
  items: TriggerItem[],
  receivedAt: Date,
): Promise<{ results: TriggerResult[]; toFold: { index: number; input: FoldInput }[] }> {
  const webhookIds = items.filter((item) => item.source === "webhook").map((item) => item.sourceId);
  const byId = await webhooks.findForTriggers([...new Set(webhookIds)]);
  const results: TriggerResult[] = new Array(items.length);
  const toFold: { index: number; input: FoldInput }[] = [];
  items.forEach((item, index) => {
    const checked = checkItem(item);
    if ("violations" in checked) {
      results[index] = { outcome: "invalid", violations: checked.violations };
      return;
    }
    const { metadata } = checked;
    let severity: Severity = item.severity ?? WEBHOOK_LIMITS.defaultSeverity;
    let reopenWindowSeconds = item.reopenWindowSeconds;
    let repeatIntervalSeconds: number | null = item.repeatIntervalSeconds ? item.repeatIntervalSeconds : null;
    if (item.source === "webhook") {
      const webhook = byId.get(item.sourceId);
      if (!webhook || webhook.teamId !== item.teamId || !webhook.enabled) {
        results[index] = { outcome: "source_not_found" };
        return;
      }
      severity = item.severity ?? webhook.defaultSeverity;
      reopenWindowSeconds = webhook.reopenWindowSeconds;
      repeatIntervalSeconds = webhook.repeatIntervalSeconds ?? null;
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
        metadata: metadata ?? null,
        groupKey: item.groupKey,
        reopenWindowSeconds,
        alertQuotaMonthly: item.alertQuotaMonthly,
        receivedAt,
        traceparent: item.traceparent,
        repeatIntervalSeconds,
        idempotency: item.idempotencyKey
          ? { teamId: item.teamId, key: item.idempotencyKey, fingerprint: item.requestFingerprint ?? "" }
          : null,
      },
    });
  });
  return { results, toFold };
}

/** The item's metadata, parsed, or what makes the item unstorable (callers validate first; this is the backstop). */
function checkItem(item: TriggerItem): { metadata: unknown } | { violations: TextProblem[] } {
  const checked = checkStoredText(
    { title: item.title, description: item.description, group_key: item.groupKey ?? undefined },
    item.metadataJson,
  );
  return "problems" in checked ? { violations: checked.problems } : checked;
}

/**
 * Marks each accepted trigger with the silence that matches it now (its
 * team's live silences, compiled and cached per team; one statement for the
 * batch's teams not cached). A trigger is matched against its own team's
 * silences only, so what another team stored costs it nothing beyond that
 * team's bounded share of the read.
 */
async function markSilenced(toFold: { input: FoldInput }[], silences: SilenceService | undefined): Promise<void> {
  if (!silences || toFold.length === 0) return;
  const byTeam = await silences.forTeams(toFold.map((entry) => entry.input.teamId));
  for (const { input } of toFold) {
    const live = byTeam.get(input.teamId) ?? [];
    if (live.length === 0) continue;
    input.silencedBy = silencedBy(
      live,
      { sourceId: input.sourceId, groupKey: input.groupKey, metadata: input.metadata },
      input.receivedAt,
    );
  }
}
