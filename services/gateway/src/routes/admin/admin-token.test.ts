import { describe, expect, it } from "vitest";
import { createAdminTokenCheck } from "./admin-token.ts";

describe("createAdminTokenCheck", () => {
  const check = createAdminTokenCheck("s3cret-token");

  it("accepts the token as a bearer credential (scheme case-insensitive)", () => {
    expect(check("Bearer s3cret-token")).toBe(true);
    expect(check("bearer s3cret-token")).toBe(true);
  });

  it.each([
    undefined,
    "",
    "Bearer",
    "Bearer ",
    "Bearer s3cret-toke",
    "Bearer s3cret-token2",
    "Basic s3cret-token",
    "s3cret-token",
    "Bearer s3cret-token extra",
  ])("refuses %s", (header) => expect(check(header)).toBe(false));

  it("refuses to be built with an empty token", () => {
    expect(() => createAdminTokenCheck("")).toThrow();
  });
});
