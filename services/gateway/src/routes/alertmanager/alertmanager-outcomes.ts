import { alerts } from "@pulsegate/proto";
import { errors } from "../../errors.ts";
import type { ValidationDetail } from "../../validation/index.ts";

/** What became of one alert of an Alertmanager payload, as the answer lists it. */
export type AlertOutcome = {
  fingerprint: string;
  status:
    | "created"
    | "occurrence_added"
    | "reopened"
    | "filtered"
    | "quota_exhausted"
    | "resolved"
    | "already_resolved"
    | "no_alert"
    | "invalid";
  alertId?: string;
  occurrenceCount?: number;
  reason?: string;
  details?: ValidationDetail[];
};

const TRIGGERED: ReadonlyMap<number, AlertOutcome["status"]> = new Map([
  [alerts.TriggerOutcome.TRIGGER_OUTCOME_CREATED, "created"],
  [alerts.TriggerOutcome.TRIGGER_OUTCOME_OCCURRENCE_ADDED, "occurrence_added"],
  [alerts.TriggerOutcome.TRIGGER_OUTCOME_REOPENED, "reopened"],
]);

const RESOLVED: ReadonlyMap<number, AlertOutcome["status"]> = new Map([
  [alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_RESOLVED, "resolved"],
  [alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_ALREADY_RESOLVED, "already_resolved"],
  [alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_NO_ALERT, "no_alert"],
]);

/**
 * A firing alert's outcome: the trigger's, in the trigger endpoint's words, where a quota or a
 * filter is one alert's outcome rather than the request's error. A webhook gone since its check
 * (disabled meanwhile) is the request's 404.
 */
export function triggerOutcome(fingerprint: string, result: alerts.TriggerAlertResult | undefined): AlertOutcome {
  const folded = result === undefined ? undefined : TRIGGERED.get(result.outcome);
  if (result && folded) {
    return { fingerprint, status: folded, alertId: result.alertId, occurrenceCount: result.occurrenceCount };
  }
  switch (result?.outcome) {
    case alerts.TriggerOutcome.TRIGGER_OUTCOME_FILTERED:
      return { fingerprint, status: "filtered", reason: result.reason };
    case alerts.TriggerOutcome.TRIGGER_OUTCOME_QUOTA_EXHAUSTED:
      return { fingerprint, status: "quota_exhausted" };
    case alerts.TriggerOutcome.TRIGGER_OUTCOME_INVALID:
      return { fingerprint, status: "invalid", details: result.violations };
    case alerts.TriggerOutcome.TRIGGER_OUTCOME_SOURCE_NOT_FOUND:
      throw errors.webhookNotFound();
    default:
      throw new Error(`TriggerAlert returned outcome ${String(result?.outcome)}`);
  }
}

/** A resolved alert's outcome: the resolve by key's (resolved, already_resolved, no_alert). */
export function resolveOutcome(fingerprint: string, result: alerts.ResolveByKeyResult | undefined): AlertOutcome {
  const status = result === undefined ? undefined : RESOLVED.get(result.outcome);
  if (result && status) {
    return {
      fingerprint,
      status,
      ...(result.alertId ? { alertId: result.alertId, occurrenceCount: result.occurrenceCount } : {}),
    };
  }
  switch (result?.outcome) {
    case alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_INVALID:
      return { fingerprint, status: "invalid", details: result.violations };
    case alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_SOURCE_NOT_FOUND:
      throw errors.webhookNotFound();
    default:
      throw new Error(`ResolveAlertsByKey returned outcome ${String(result?.outcome)}`);
  }
}
