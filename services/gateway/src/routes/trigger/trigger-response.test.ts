import { alerts } from "@pulsegate/proto";
import { describe, expect, it } from "vitest";
import { thrownHttpError } from "../../testing/thrown-http-error.ts";
import { triggerResponse } from "./trigger-response.ts";

const result = (
  outcome: alerts.TriggerOutcome,
  extra: Partial<alerts.TriggerAlertResult> = {},
): alerts.TriggerAlertResult => ({
  outcome,
  alertId: "",
  occurrenceCount: 0,
  reason: "",
  violations: [],
  replayed: false,
  ...extra,
});

describe("triggerResponse", () => {
  it.each([
    [alerts.TriggerOutcome.TRIGGER_OUTCOME_CREATED, "created", "Alert created and notifications triggered"],
    [alerts.TriggerOutcome.TRIGGER_OUTCOME_OCCURRENCE_ADDED, "occurrence_added", "Occurrence added to existing alert"],
    [alerts.TriggerOutcome.TRIGGER_OUTCOME_REOPENED, "reopened", "Alert reopened and notifications triggered"],
  ] as const)("answers 201 for outcome %i", (outcome, status, message) => {
    expect(triggerResponse(result(outcome, { alertId: "a1", occurrenceCount: 3 }))).toEqual({
      status: 201,
      body: { alertId: "a1", status, message, occurrenceCount: 3 },
    });
  });

  it("answers 200 filtered with the reason", () => {
    const reason = 'metadata.env == "production"';
    expect(triggerResponse(result(alerts.TriggerOutcome.TRIGGER_OUTCOME_FILTERED, { reason }))).toEqual({
      status: 200,
      body: { status: "filtered", message: "Webhook received but filtered by rules", reason },
    });
  });

  it("answers 429 alert_quota_exhausted with Retry-After until the next UTC month", () => {
    const now = new Date("2025-02-28T23:59:30Z");
    const error = thrownHttpError(() =>
      triggerResponse(result(alerts.TriggerOutcome.TRIGGER_OUTCOME_QUOTA_EXHAUSTED), now),
    );
    expect(error.status).toBe(429);
    expect(error.code).toBe("alert_quota_exhausted");
    expect(error.headers["retry-after"]).toBe("30");
  });

  it("answers 404 when the webhook disappeared, and fails on unknown outcomes", () => {
    expect(
      thrownHttpError(() => triggerResponse(result(alerts.TriggerOutcome.TRIGGER_OUTCOME_SOURCE_NOT_FOUND))).code,
    ).toBe("webhook_not_found");
    expect(() => triggerResponse(undefined)).toThrow(/outcome/);
    expect(() => triggerResponse(result(alerts.TriggerOutcome.TRIGGER_OUTCOME_UNSPECIFIED))).toThrow(/outcome/);
  });

  it("answers 400 with the fields alerts refused", () => {
    const violations = [{ field: "metadata.k", message: "metadata.k must not contain the NUL character (U+0000)." }];
    const error = thrownHttpError(() =>
      triggerResponse(result(alerts.TriggerOutcome.TRIGGER_OUTCOME_INVALID, { violations })),
    );
    expect([error.status, error.code, error.details]).toEqual([400, "invalid_request", violations]);
  });
});
