import { ALERT_LIMITS } from "@pulsegate/contract/limits";
import { findUnstorableText, type TextProblem } from "@pulsegate/contract/text";
import type { AlertSource } from "@pulsegate/contract/vocabulary";
import { type IdempotencyKey, inTransaction, type PgClient, type PgPool } from "@pulsegate/db";
import { alertEvent, writeOutboxEvents } from "../outbox/write-outbox-events.ts";
import type { WebhookService } from "../webhooks/webhook-service.ts";
import { alertIdempotencyKeys, type IdempotencyKeyReused } from "./alert-idempotency-keys.ts";
import { alertFromRow } from "./alert-row.ts";
import { keyOf } from "./plan-batch.ts";
import { type KeyResolution, type KeyToResolve, resolveKeys } from "./resolve-by-key-statements.ts";

export type ResolveByKeyItem = {
  teamId: string;
  source: AlertSource;
  sourceId: string;
  groupKey: string;
  /** The request's Idempotency-Key; absent or null: none. */
  idempotency?: IdempotencyKey | null;
};

export type ResolveByKeyResult =
  | {
      outcome: "resolved" | "already_resolved";
      alertId: string;
      occurrenceCount: number;
      /** The answer of the idempotency key's first resolve, given again; nothing was changed now. */
      replayed?: boolean;
    }
  | { outcome: "no_alert"; replayed?: boolean }
  | { outcome: "source_not_found" }
  | { outcome: "invalid"; violations: TextProblem[] }
  | IdempotencyKeyReused;

/** Every answer of a resolve is kept for its key: even "no alert" is what the first one found. */
const RESOLVE_ANSWERS = {
  keep: (result: ResolveByKeyResult) =>
    result.outcome === "resolved" || result.outcome === "already_resolved"
      ? { outcome: result.outcome, alertId: result.alertId, occurrenceCount: result.occurrenceCount }
      : result.outcome === "no_alert"
        ? { outcome: result.outcome }
        : null,
  repeat: (answer: { outcome: string; alertId?: string; occurrenceCount?: number }): ResolveByKeyResult =>
    answer.outcome === "no_alert"
      ? { outcome: "no_alert", replayed: true }
      : {
          outcome: answer.outcome as "resolved" | "already_resolved",
          alertId: answer.alertId ?? "",
          occurrenceCount: answer.occurrenceCount ?? 0,
          replayed: true,
        },
  reused: (): IdempotencyKeyReused => ({ outcome: "idempotency_key_reused" }),
};

/**
 * Resolves the open alert of each item's (team, group key), like a PagerDuty
 * resolve event: idempotent, and never an error for a key without an open
 * alert (`already_resolved`, `no_alert`). A webhook source must exist, be
 * enabled and belong to the team (read through the webhook cache). The whole
 * batch is one transaction of three statements whatever its size (and two more
 * when items carry an Idempotency-Key): one takes
 * the keys' advisory locks (the locks a trigger batch takes, so a resolve never
 * races a fold of the same key), one resolves (seeing what committed while it
 * waited), one writes the alert.resolved events of the alerts it resolved. Several
 * items with one key: the first resolves, the others find it resolved.
 * With `dryRun`, the answer is read without locking or writing anything.
 */
export async function resolveAlertsByKey(
  pool: PgPool,
  webhooks: WebhookService,
  items: ResolveByKeyItem[],
  options: { dryRun?: boolean; now?: () => Date } = {},
): Promise<ResolveByKeyResult[]> {
  const dryRun = options.dryRun ?? false;
  const webhookIds = items.filter((item) => item.source === "webhook").map((item) => item.sourceId);
  const byId = await webhooks.findForTriggers([...new Set(webhookIds)]);
  const results: ResolveByKeyResult[] = new Array(items.length);
  const valid: { index: number; item: ResolveByKeyItem }[] = [];
  items.forEach((item, index) => {
    const violations = checkGroupKey(item.groupKey);
    if (violations.length > 0) {
      results[index] = { outcome: "invalid", violations };
      return;
    }
    if (item.source === "webhook") {
      const webhook = byId.get(item.sourceId);
      if (!webhook || webhook.teamId !== item.teamId || !webhook.enabled) {
        results[index] = { outcome: "source_not_found" };
        return;
      }
    }
    valid.push({ index, item });
  });
  if (valid.length === 0) return results;

  const at = (options.now ?? (() => new Date()))();
  const checked = valid.map((entry) => entry.item);
  const resolved = dryRun
    ? await resolveChecked(pool, checked, at, true)
    : await inTransaction(pool, (client) =>
        alertIdempotencyKeys.applyOnce(
          client,
          checked,
          checked.map((item) => item.idempotency ?? null),
          (claimed) => resolveChecked(client, claimed, at, false),
          RESOLVE_ANSWERS,
        ),
      );
  valid.forEach((entry, position) => {
    results[entry.index] = resolved[position] as ResolveByKeyResult;
  });
  return results;
}

/** Resolves checked items (in the caller's transaction unless a dry run); results in their order. */
async function resolveChecked(
  client: PgClient | PgPool,
  items: ResolveByKeyItem[],
  at: Date,
  dryRun: boolean,
): Promise<ResolveByKeyResult[]> {
  const results: ResolveByKeyResult[] = new Array(items.length);
  const keys = new Map<string, KeyToResolve & { items: number[] }>();
  items.forEach((item, index) => {
    const id = keyOf(item.teamId, item.groupKey);
    const key = keys.get(id) ?? { teamId: item.teamId, groupKey: item.groupKey, items: [] };
    key.items.push(index);
    keys.set(id, key);
  });
  if (keys.size === 0) return results;
  const list = [...keys.values()];
  const resolutions = await resolveKeys(client, list, at, dryRun);
  if (!dryRun) {
    // An alert opened under a silence notified nobody; its resolve does not either.
    const events = resolutions
      .flatMap((found) => (found.resolved ? [alertFromRow(found.resolved)] : []))
      .filter((alert) => !alert.silencedBy);
    await writeOutboxEvents(
      client,
      events.map((alert) => alertEvent("alert.resolved", alert, at)),
    );
  }
  list.forEach((key, position) => {
    const [first, ...rest] = key.items;
    const found = resolutions[position] as KeyResolution;
    const alert = found.resolved ?? found.latest;
    if (!alert) {
      for (const index of key.items) results[index] = { outcome: "no_alert" };
      return;
    }
    const answer = { alertId: alert.id, occurrenceCount: alert.occurrence_count };
    results[first as number] = { outcome: found.resolved ? "resolved" : "already_resolved", ...answer };
    for (const index of rest) results[index] = { outcome: "already_resolved", ...answer };
  });
  return results;
}

/** Callers validate first (the gateway answers 400); this is the backstop. */
function checkGroupKey(groupKey: string): TextProblem[] {
  if (groupKey === "") return [{ field: "group_key", message: "group_key is required." }];
  if ([...groupKey].length > ALERT_LIMITS.groupKeyMaxLength) {
    return [{ field: "group_key", message: `group_key must be at most ${ALERT_LIMITS.groupKeyMaxLength} characters.` }];
  }
  return findUnstorableText({ group_key: groupKey }, "");
}

/** Whether any result wrote an outbox event (the dispatcher is nudged then). */
export function anyResolved(results: ResolveByKeyResult[]): boolean {
  return results.some((result) => result.outcome === "resolved");
}
