import { describe, expect, it } from "vitest";
import { verdictOf } from "./delivery-policy.ts";

describe("verdictOf", () => {
  it.each([
    [200, "delivered"],
    [204, "delivered"],
    [500, "retry"],
    [502, "retry"],
    [503, "retry"],
    [408, "retry"],
    [425, "retry"],
    [429, "retry"],
    [301, "retry"],
    [400, "fail"],
    [401, "fail"],
    [403, "fail"],
    [404, "fail"],
    [413, "fail"],
    [422, "fail"],
    [410, "gone"],
  ])("HTTP %i → %s", (status, verdict) => {
    expect(verdictOf(status)).toBe(verdict);
  });
});
