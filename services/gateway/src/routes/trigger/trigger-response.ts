import { secondsUntilNextQuotaMonth } from "@pulsegate/contract/quota";
import { alerts } from "@pulsegate/proto";
import { errors } from "../../errors.ts";
import { DRY_RUN_MESSAGE } from "../../pipeline/dry-run.ts";
import { idempotencyKeyReused } from "../../pipeline/idempotency-key.ts";

/** Texts of the spec (exact). */
export const TRIGGER_MESSAGES = {
  created: "Alert created and notifications triggered",
  occurrence_added: "Occurrence added to existing alert",
  reopened: "Alert reopened and notifications triggered",
  filtered: "Webhook received but filtered by rules",
} as const;

const FOLDED: ReadonlyMap<number, "created" | "occurrence_added" | "reopened"> = new Map([
  [alerts.TriggerOutcome.TRIGGER_OUTCOME_CREATED, "created"],
  [alerts.TriggerOutcome.TRIGGER_OUTCOME_OCCURRENCE_ADDED, "occurrence_added"],
  [alerts.TriggerOutcome.TRIGGER_OUTCOME_REOPENED, "reopened"],
]);

/** Step 7: the HTTP answer for alerts' verdict on one trigger (errors are thrown). */
export function triggerResponse(
  result: alerts.TriggerAlertResult | undefined,
  now: Date = new Date(),
): { status: number; body: Record<string, unknown> } {
  const outcome = result?.outcome;
  const folded = outcome === undefined ? undefined : FOLDED.get(outcome);
  if (result && folded) {
    return {
      status: 201,
      body: {
        alertId: result.alertId,
        status: folded,
        message: TRIGGER_MESSAGES[folded],
        occurrenceCount: result.occurrenceCount,
      },
    };
  }
  switch (outcome) {
    case alerts.TriggerOutcome.TRIGGER_OUTCOME_FILTERED:
      return {
        status: 200,
        body: { status: "filtered", message: TRIGGER_MESSAGES.filtered, reason: result?.reason ?? "" },
      };
    case alerts.TriggerOutcome.TRIGGER_OUTCOME_QUOTA_EXHAUSTED:
      throw errors.alertQuotaExhausted(secondsUntilNextQuotaMonth(now));
    case alerts.TriggerOutcome.TRIGGER_OUTCOME_SOURCE_NOT_FOUND:
      throw errors.webhookNotFound();
    case alerts.TriggerOutcome.TRIGGER_OUTCOME_INVALID:
      throw errors.invalidRequest(result?.violations ?? []);
    case alerts.TriggerOutcome.TRIGGER_OUTCOME_IDEMPOTENCY_KEY_REUSED:
      throw idempotencyKeyReused();
    default:
      throw new Error(`TriggerAlert returned outcome ${String(outcome)}`);
  }
}

const PREVIEWED: ReadonlyMap<number, string> = new Map([
  ...FOLDED,
  [alerts.TriggerOutcome.TRIGGER_OUTCOME_FILTERED, "filtered"],
  [alerts.TriggerOutcome.TRIGGER_OUTCOME_QUOTA_EXHAUSTED, "quota_exhausted"],
]);

/**
 * `?dryRun=true`: 200 with what the trigger would do (status created,
 * occurrence_added, reopened, filtered or quota_exhausted), the group key, the
 * alert it would fold into or reopen, the filter's reason. Errors as for a trigger.
 */
export function dryRunTriggerResponse(
  result: alerts.TriggerAlertResult | undefined,
  groupKey: string | null,
): Record<string, unknown> {
  const status = result === undefined ? undefined : PREVIEWED.get(result.outcome);
  if (!result || !status) return triggerResponse(result).body;
  return {
    dryRun: true,
    status,
    message: DRY_RUN_MESSAGE,
    groupKey,
    ...(result.alertId ? { alertId: result.alertId } : {}),
    ...(result.occurrenceCount > 0 ? { occurrenceCount: result.occurrenceCount } : {}),
    ...(status === "filtered" ? { reason: result.reason } : {}),
  };
}
