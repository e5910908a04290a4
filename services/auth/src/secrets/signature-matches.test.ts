import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveHmacStates, VerifierKey } from "./hmac-states.ts";
import { parseSignatureHeader } from "./signature-header.ts";
import { signatureMatches } from "./signature-matches.ts";

const SECRET = "a".repeat(64);
const KEY = VerifierKey.fromStates(deriveHmacStates(SECRET));
// printf 'hello' | openssl dgst -sha256 -hmac "$(printf 'a%.0s' {1..64})"
const HELLO_MAC = "ea7912d1e9662c483f7bc3f1a274aad649d88948c240e2c5cc1e4b14c8e67857";

describe("signatureMatches", () => {
  // As auth's verification reads a header (team-keys.ts): parsed, then compared.
  it("matches the parsed header in every accepted form, over a string or bytes", () => {
    for (const header of [HELLO_MAC, HELLO_MAC.toUpperCase(), `sha256=${HELLO_MAC}`]) {
      const parsed = parseSignatureHeader(header);
      if (parsed === null) throw new Error(`${header} did not parse`);
      expect(signatureMatches(KEY, "hello", parsed)).toBe(true);
      expect(signatureMatches(KEY, Buffer.from("hello"), parsed)).toBe(true);
    }
  });

  it("does not match a signature for another body or another secret", () => {
    const mac = Buffer.from(HELLO_MAC, "hex");
    expect(signatureMatches(KEY, "hello!", mac)).toBe(false);
    const other = VerifierKey.fromStates(deriveHmacStates("b".repeat(64)));
    expect(signatureMatches(other, "hello", mac)).toBe(false);
  });

  it("matches exactly the createHmac signature and no single-bit flip of it", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.nat({ max: 255 }), (body, bit) => {
        const mac = createHmac("sha256", SECRET).update(body).digest();
        expect(signatureMatches(KEY, body, mac)).toBe(true);
        const flipped = Buffer.from(mac);
        flipped[bit >> 3] = (flipped[bit >> 3] ?? 0) ^ (1 << (bit & 7));
        expect(signatureMatches(KEY, body, flipped)).toBe(false);
      }),
    );
  });

  it("compares bytes in constant time and is false on a wrong length", () => {
    const mac = Buffer.from(HELLO_MAC, "hex");
    expect(signatureMatches(KEY, "hello", mac)).toBe(true);
    expect(signatureMatches(KEY, "hello", new Uint8Array(mac))).toBe(true);
    expect(signatureMatches(KEY, "hello", mac.subarray(0, 31))).toBe(false);
    expect(signatureMatches(KEY, "hello", Buffer.concat([mac, Buffer.of(0)]))).toBe(false);
    expect(signatureMatches(KEY, "hello", new Uint8Array(0))).toBe(false);
    expect(signatureMatches(KEY, "hello", Buffer.alloc(32))).toBe(false);
  });
});
