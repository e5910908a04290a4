import { IDEMPOTENCY_LIMITS } from "@pulsegate/contract/limits";
import { IdempotencyKeys } from "@pulsegate/db";
import type { FoldResult } from "./plan-batch.ts";

/** What a trigger or a resolve that applied something answered: given again for a repeat of its key. */
type AppliedAnswer = {
  outcome: "created" | "occurrence_added" | "reopened" | "resolved" | "already_resolved" | "no_alert";
  alertId?: string;
  occurrenceCount?: number;
};

/** The owner of alerts.idempotency_keys: triggers and resolves of one team share its keys. */
export const alertIdempotencyKeys = new IdempotencyKeys<AppliedAnswer>("alerts", IDEMPOTENCY_LIMITS.keptHours);

export type IdempotencyKeyReused = { outcome: "idempotency_key_reused" };

/** A fold's answers under a key: a quota refusal applied nothing, so its retry is checked again. */
export const FOLD_ANSWERS = {
  keep: (result: FoldResult | IdempotencyKeyReused): AppliedAnswer | null =>
    result.outcome === "created" || result.outcome === "occurrence_added" || result.outcome === "reopened"
      ? { outcome: result.outcome, alertId: result.alertId, occurrenceCount: result.occurrenceCount }
      : null,
  repeat: (answer: AppliedAnswer): FoldResult => ({
    outcome: answer.outcome as "created" | "occurrence_added" | "reopened",
    alertId: answer.alertId ?? "",
    occurrenceCount: answer.occurrenceCount ?? 0,
    replayed: true,
  }),
  reused: (): IdempotencyKeyReused => ({ outcome: "idempotency_key_reused" }),
};
