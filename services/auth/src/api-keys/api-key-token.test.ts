import { describe, expect, it } from "vitest";
import { hashToken, issueToken, prefixOf, tokenMatches } from "./api-key-token.ts";

describe("API key tokens", () => {
  it("are pgk_ and 43 base64url characters, with a 12-character shown prefix and a SHA-256", () => {
    const { token, prefix, hash } = issueToken();
    expect(token).toMatch(/^pgk_[A-Za-z0-9_-]{43}$/);
    expect(prefix).toBe(token.slice(0, 12));
    expect(hash).toEqual(hashToken(token));
    expect(hash).toHaveLength(32);
    expect(issueToken().token).not.toBe(token);
  });

  it("match only their own hash, and never throw on a wrong length", () => {
    const a = issueToken();
    const b = issueToken();
    expect(tokenMatches(a.token, a.hash)).toBe(true);
    expect(tokenMatches(b.token, a.hash)).toBe(false);
    expect(tokenMatches(a.token, a.hash.subarray(0, 31))).toBe(false);
  });

  it("recognise only well-formed tokens", () => {
    const { token } = issueToken();
    expect(prefixOf(token)).toBe(token.slice(0, 12));
    for (const other of ["", "pgk_", `${token}x`, token.replace("pgk_", "pgx_"), `pgk_${"+".repeat(43)}`]) {
      expect(prefixOf(other)).toBeNull();
    }
  });
});
