import { describe, expect, it } from "vitest";
import { bearerTokenMatches, issueBearerToken } from "./bearer-token.ts";

describe("Alertmanager bearer tokens", () => {
  it("are pgam_ and 43 base64url characters, different each time, stored as a 32-byte SHA-256", () => {
    const first = issueBearerToken();
    const second = issueBearerToken();
    expect(first.token).toMatch(/^pgam_[A-Za-z0-9_-]{43}$/);
    expect(first.token).not.toBe(second.token);
    expect(first.hash).toHaveLength(32);
    expect(first.hash.toString("hex")).not.toContain(Buffer.from(first.token).toString("hex"));
  });

  it("match their own hash only", () => {
    const issued = issueBearerToken();
    expect(bearerTokenMatches(issued.token, issued.hash)).toBe(true);
    expect(bearerTokenMatches(issueBearerToken().token, issued.hash)).toBe(false);
    expect(bearerTokenMatches(`${issued.token} `, issued.hash)).toBe(false);
    expect(bearerTokenMatches("", issued.hash)).toBe(false);
  });

  it("never match a missing or malformed hash, and never throw for one", () => {
    const { token } = issueBearerToken();
    expect(bearerTokenMatches(token, null)).toBe(false);
    expect(bearerTokenMatches(token, undefined)).toBe(false);
    expect(bearerTokenMatches(token, Buffer.alloc(0))).toBe(false);
    expect(bearerTokenMatches(token, Buffer.alloc(31))).toBe(false);
  });
});
