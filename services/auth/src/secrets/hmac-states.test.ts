import { createHmac } from "node:crypto";
import { inspect } from "node:util";
import { parseKeyring } from "@pulsegate/sealing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deriveHmacStates, HMAC_STATES_BYTES, hmacFromStates, VerifierKey } from "./hmac-states.ts";
import { sealStates } from "./seal.ts";
import { openStates } from "./verifier-key.ts";

const keyring = parseKeyring(Buffer.alloc(32, 0x42).toString("base64"), undefined, "production");
const aad = "pulsegate:team-secret:team_123:fp";

// Expected values computed with OpenSSL 3, e.g.
//   printf 'hello' | openssl dgst -sha256 -hmac "$(printf 'a%.0s' {1..64})"
const KEY_A = "a".repeat(64);
const KEY_SEQ = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const VECTORS: ReadonlyArray<{ key: string; body: string; mac: string }> = [
  { key: KEY_A, body: "hello", mac: "ea7912d1e9662c483f7bc3f1a274aad649d88948c240e2c5cc1e4b14c8e67857" },
  { key: KEY_A, body: "", mac: "b389ef8fc24e40e35b42b70221b466916836a241257699d090bc736b8ad21b98" },
  {
    key: KEY_SEQ,
    body: '{"event":"alert.fired","id":42}',
    mac: "5b22f0ba3ad80dd6ae3722132e7148f088f3872c18293ddba229cee472746173",
  },
  { key: KEY_SEQ, body: "hello", mac: "b49bbe02310cc1ca6cbcc785bd0d608d032232984c64a65eeae0a46e4be84ece" },
];

const keyFor = (secret: string): VerifierKey => VerifierKey.fromStates(deriveHmacStates(secret));

describe("HMAC from precomputed states", () => {
  it.each(VECTORS)("matches pinned openssl vector ($body)", ({ key, body, mac }) => {
    expect(hmacFromStates(keyFor(key), body).toString("hex")).toBe(mac);
    expect(hmacFromStates(keyFor(key), Buffer.from(body)).toString("hex")).toBe(mac);
    const sealed = sealStates(deriveHmacStates(key), keyring, aad);
    expect(hmacFromStates(openStates(sealed, keyring, aad), body).toString("hex")).toBe(mac);
  });

  it("after seal→open equals crypto.createHmac for random secrets and bodies (0..~100 KB)", () => {
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 200 }), // covers empty and the 55/56/64-byte padding edges
      fc.uint8Array({ maxLength: 100_000, size: "max" }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), body, (raw, payload) => {
        const secret = Buffer.from(raw).toString("hex");
        const sealed = sealStates(deriveHmacStates(secret), keyring, aad);
        const key = openStates(sealed, keyring, aad);
        const expected = createHmac("sha256", secret).update(payload).digest();
        expect(hmacFromStates(key, payload).equals(expected)).toBe(true);
        // the key is reusable: a second MAC is identical
        expect(hmacFromStates(key, payload).equals(expected)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("string payloads are UTF-8, like createHmac", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 500 }), (text) => {
        expect(hmacFromStates(keyFor(KEY_SEQ), text).toString("hex")).toBe(
          createHmac("sha256", KEY_SEQ).update(text).digest("hex"),
        );
      }),
    );
  });

  it("derives 64 bytes of states that do not contain the secret", () => {
    const states = deriveHmacStates(KEY_SEQ);
    expect(states.length).toBe(HMAC_STATES_BYTES);
    expect(Buffer.from(states).includes(Buffer.from(KEY_SEQ))).toBe(false);
    expect(Buffer.from(states).toString("hex")).not.toContain(KEY_SEQ);
  });

  it("rejects malformed secrets and state sizes", () => {
    expect(() => deriveHmacStates("A".repeat(64))).toThrow(TypeError);
    expect(() => deriveHmacStates("a".repeat(63))).toThrow(TypeError);
    expect(() => VerifierKey.fromStates(new Uint8Array(63))).toThrow(RangeError);
  });

  it("a VerifierKey does not reveal its states when logged or serialized", () => {
    const key = keyFor(KEY_SEQ);
    expect(inspect(key)).toBe("[VerifierKey redacted]");
    expect(JSON.stringify({ key })).toBe('{"key":"[VerifierKey redacted]"}');
    expect(String(key)).toBe("[VerifierKey redacted]");
  });
});
