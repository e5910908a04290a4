import { alerts } from "@pulsegate/proto";
import { errors } from "../../errors.ts";
import { DRY_RUN_MESSAGE } from "../../pipeline/dry-run.ts";
import { idempotencyKeyReused } from "../../pipeline/idempotency-key.ts";

export const RESOLVE_MESSAGES = {
  resolved: "Alert resolved and notifications triggered",
  already_resolved: "Alert already resolved",
  no_alert: "No alert has this group key",
} as const;

const STATUSES: ReadonlyMap<number, keyof typeof RESOLVE_MESSAGES> = new Map([
  [alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_RESOLVED, "resolved"],
  [alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_ALREADY_RESOLVED, "already_resolved"],
  [alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_NO_ALERT, "no_alert"],
]);

/** The 200 answer for alerts' verdict on one resolve-by-key (errors are thrown). */
export function resolveResponse(
  result: alerts.ResolveByKeyResult | undefined,
  groupKey: string,
  dryRun: boolean,
): Record<string, unknown> {
  const status = result === undefined ? undefined : STATUSES.get(result.outcome);
  if (result && status) {
    return {
      status,
      message: dryRun ? DRY_RUN_MESSAGE : RESOLVE_MESSAGES[status],
      groupKey,
      ...(result.alertId ? { alertId: result.alertId, occurrenceCount: result.occurrenceCount } : {}),
      ...(dryRun ? { dryRun: true } : {}),
    };
  }
  switch (result?.outcome) {
    case alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_SOURCE_NOT_FOUND:
      throw errors.webhookNotFound();
    case alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_INVALID:
      throw errors.invalidRequest(result.violations);
    case alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_IDEMPOTENCY_KEY_REUSED:
      throw idempotencyKeyReused();
    default:
      throw new Error(`ResolveAlertsByKey returned outcome ${String(result?.outcome)}`);
  }
}
