import { describe, expect, it } from "vitest";
import { newUrlToken } from "./url-token.ts";

describe("newUrlToken", () => {
  it("is 32 base64url characters that never start with '-' (a command line would read an option)", () => {
    const tokens = Array.from({ length: 5_000 }, newUrlToken);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
