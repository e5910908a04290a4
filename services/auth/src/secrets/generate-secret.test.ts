import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fingerprintSecret, generateSecret, isSecretText } from "./generate-secret.ts";

describe("generateSecret", () => {
  it("returns 64 lowercase hex chars and its sha256 fingerprint", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { secret, fingerprint } = generateSecret();
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      expect(isSecretText(secret)).toBe(true);
      expect(fingerprint).toBe(createHash("sha256").update(secret).digest("hex"));
      expect(fingerprint).not.toBe(secret);
      seen.add(secret);
    }
    expect(seen.size).toBe(200);
  });

  it("fingerprintSecret is hex(sha256(secret text))", () => {
    // printf '%s' 000102...1e1f | openssl dgst -sha256
    expect(fingerprintSecret("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")).toBe(
      "6c86c6aac5fb24bcf5d9939cb7d7d5645ce39418f449e03b262dd4fa14b4b92b",
    );
  });

  it("isSecretText rejects anything but 64 lowercase hex chars", () => {
    for (const bad of ["", "a".repeat(63), "a".repeat(65), "A".repeat(64), `${"a".repeat(63)}g`, 42, null, undefined]) {
      expect(isSecretText(bad)).toBe(false);
    }
  });
});
