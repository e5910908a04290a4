import { describe, expect, it } from "vitest";
import { outcomeFields } from "./outcome-fields.ts";

type Result =
  | { outcome: "created"; alertId: string; occurrenceCount: number }
  | { outcome: "filtered"; reason: string }
  | { outcome: "invalid"; violations: { field: string; message: string }[] };

const ABSENT = { alertId: "", occurrenceCount: 0, reason: "", violations: [] as { field: string; message: string }[] };

describe("outcomeFields", () => {
  it("takes each field the outcome has and the default for the others", () => {
    const created: Result = { outcome: "created", alertId: "alert_1", occurrenceCount: 3 };
    expect(outcomeFields(created, ABSENT)).toEqual({
      alertId: "alert_1",
      occurrenceCount: 3,
      reason: "",
      violations: [],
    });
    const invalid: Result = { outcome: "invalid", violations: [{ field: "title", message: "is required" }] };
    expect(outcomeFields(invalid, ABSENT)).toEqual({
      alertId: "",
      occurrenceCount: 0,
      reason: "",
      violations: [{ field: "title", message: "is required" }],
    });
  });

  it("gives each message a list of its own", () => {
    const filtered: Result = { outcome: "filtered", reason: "env != prod" };
    const first = outcomeFields(filtered, ABSENT);
    first.violations.push({ field: "title", message: "is required" });
    expect(outcomeFields(filtered, ABSENT).violations).toEqual([]);
    expect(ABSENT.violations).toEqual([]);
  });

  it("leaves out the result's fields that the message does not carry, and its outcome", () => {
    const filtered: Result = { outcome: "filtered", reason: "env != prod" };
    expect(outcomeFields(filtered, { reason: "" })).toEqual({ reason: "env != prod" });
  });

  it("refuses a default whose type differs from the result's field", () => {
    // Typed as the whole union, as a service's result is (a literal would narrow it to its member).
    const created = { outcome: "created", alertId: "alert_1", occurrenceCount: 3 } as Result;
    // @ts-expect-error occurrenceCount is a number in the result
    outcomeFields(created, { occurrenceCount: "" });
    // @ts-expect-error an untyped empty list is not the result's violations
    outcomeFields(created, { violations: [] });
  });
});
