import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveHmacStates, VerifierKey } from "./hmac-states.ts";
import { signatureMatches, verifySignature } from "./verify-signature.ts";

const SECRET = "a".repeat(64);
const KEY = VerifierKey.fromStates(deriveHmacStates(SECRET));
// printf 'hello' | openssl dgst -sha256 -hmac "$(printf 'a%.0s' {1..64})"
const HELLO_MAC = "ea7912d1e9662c483f7bc3f1a274aad649d88948c240e2c5cc1e4b14c8e67857";

describe("verifySignature", () => {
  it("accepts the correct signature in every accepted header form", () => {
    for (const header of [HELLO_MAC, HELLO_MAC.toUpperCase(), `sha256=${HELLO_MAC}`]) {
      expect(verifySignature(KEY, "hello", header)).toBe(true);
      expect(verifySignature(KEY, Buffer.from("hello"), header)).toBe(true);
    }
  });

  it("rejects a signature for another body or another secret", () => {
    expect(verifySignature(KEY, "hello!", HELLO_MAC)).toBe(false);
    const other = VerifierKey.fromStates(deriveHmacStates("b".repeat(64)));
    expect(verifySignature(other, "hello", HELLO_MAC)).toBe(false);
  });

  it("returns false (never throws) for malformed headers", () => {
    for (const header of [
      "",
      HELLO_MAC.slice(0, 63),
      `${HELLO_MAC}0`,
      `sha1=${HELLO_MAC}`,
      "zz",
      undefined,
      null,
      7,
      [HELLO_MAC],
    ]) {
      expect(verifySignature(KEY, "hello", header)).toBe(false);
    }
  });

  it("accepts exactly the createHmac signature and rejects any single-bit flip", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.nat({ max: 255 }), (body, bit) => {
        const mac = createHmac("sha256", SECRET).update(body).digest();
        expect(verifySignature(KEY, body, mac.toString("hex"))).toBe(true);
        const flipped = Buffer.from(mac);
        flipped[bit >> 3] = (flipped[bit >> 3] ?? 0) ^ (1 << (bit & 7));
        expect(verifySignature(KEY, body, flipped.toString("hex"))).toBe(false);
      }),
    );
  });

  it("signatureMatches compares bytes in constant time and is false on a wrong length", () => {
    const mac = Buffer.from(HELLO_MAC, "hex");
    expect(signatureMatches(KEY, "hello", mac)).toBe(true);
    expect(signatureMatches(KEY, "hello", new Uint8Array(mac))).toBe(true);
    expect(signatureMatches(KEY, "hello", mac.subarray(0, 31))).toBe(false);
    expect(signatureMatches(KEY, "hello", Buffer.concat([mac, Buffer.of(0)]))).toBe(false);
    expect(signatureMatches(KEY, "hello", new Uint8Array(0))).toBe(false);
    expect(signatureMatches(KEY, "hello", Buffer.alloc(32))).toBe(false);
  });
});
