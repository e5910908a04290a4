import { createHash, randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { DEV_KEK_ID, kekId, parseKeyring } from "./keyring.ts";
import { openValue, sealValue } from "./seal-value.ts";

const b64 = (buf: Buffer): string => buf.toString("base64");
const K1 = randomBytes(32);
const K2 = randomBytes(32);
const K3 = randomBytes(32);

describe("parseKeyring", () => {
  it("loads SECRET_KEK as the current KEK with a deterministic id", () => {
    const ring = parseKeyring(b64(K1), undefined, "production");
    const id = createHash("sha256").update(K1).digest("hex").slice(0, 8);
    expect(ring.current.id).toBe(id);
    expect(kekId(K1)).toBe(id);
    expect(parseKeyring(` ${b64(K1)}\n`, "", "production").current.id).toBe(id);
    expect([...ring.byId.keys()]).toEqual([id]);
    expect(ring.current.key.export().equals(K1)).toBe(true);
  });

  it("accepts explicit ids as id:base64", () => {
    const ring = parseKeyring(`k2:${b64(K2)}`, `k1:${b64(K1)},${b64(K3)}`, "production");
    expect(ring.current.id).toBe("k2");
    expect(new Set(ring.byId.keys())).toEqual(new Set(["k2", "k1", kekId(K3)]));
    expect(ring.byId.get("k1")?.export().equals(K1)).toBe(true);
  });

  it("adds SECRET_KEK_PREVIOUS keys for opening only", () => {
    const ring = parseKeyring(b64(K1), ` ${b64(K2)} , ${b64(K1)}`, "production");
    expect(ring.current.id).toBe(kekId(K1));
    expect(new Set(ring.byId.keys())).toEqual(new Set([kekId(K1), kekId(K2)]));
    expect(parseKeyring(b64(K1), "  ", "production").byId.size).toBe(1);
  });

  it("falls back to the public development KEK only in development and test", () => {
    for (const env of ["development", "test"]) {
      const ring = parseKeyring(undefined, undefined, env);
      expect(ring.current.id).toBe(DEV_KEK_ID);
      expect(parseKeyring("", undefined, env).current.id).toBe(DEV_KEK_ID);
      const sealed = sealValue(new Uint8Array(64).fill(1), ring, "test", "aad");
      expect(openValue(sealed, parseKeyring(undefined, undefined, env), "test", "aad").length).toBe(64);
    }
    expect(() => parseKeyring(undefined, undefined, "production")).toThrow(
      /^SECRET_KEK is required when NODE_ENV=production/,
    );
    expect(() => parseKeyring(undefined, undefined, "staging")).toThrow(/^SECRET_KEK is required/);
  });

  it("rejects the public development KEK in production, also as a previous KEK", () => {
    const dev = parseKeyring(undefined, undefined, "development").current.key.export() as Buffer;
    expect(() => parseKeyring(b64(dev), undefined, "production")).toThrow(
      /^SECRET_KEK is the publicly known development KEK/,
    );
    expect(() => parseKeyring(b64(K1), b64(dev), "production")).toThrow(
      /^SECRET_KEK_PREVIOUS\[0\] is the publicly known/,
    );
    expect(parseKeyring(b64(dev), undefined, "test").current.id).toBe(kekId(dev));
  });

  it("takes SECRET_KEK as a list: the first key seals, the others still open", () => {
    const ring = parseKeyring(`${b64(K2)}, k1:${b64(K1)}`, b64(K3), "production");
    expect(ring.current.id).toBe(kekId(K2));
    expect([...ring.byId.keys()]).toEqual([kekId(K2), "k1", kekId(K3)]);
    const sealedUnderOld = sealValue(
      Buffer.from("x"),
      parseKeyring(`k1:${b64(K1)}`, undefined, "production"),
      "t",
      "a",
    );
    expect(openValue(sealedUnderOld, ring, "t", "a").toString()).toBe("x");
    expect(() => parseKeyring(`${b64(K2)},`, undefined, "production")).toThrow(/^SECRET_KEK\[1\] is empty/);
    expect(() => parseKeyring(`${b64(K2)},not base64!`, undefined, "production")).toThrow(
      /^SECRET_KEK\[1\] must be standard base64/,
    );
  });

  it("does not print key bytes when logged", () => {
    const ring = parseKeyring(b64(K1), b64(K2), "production");
    const text = inspect(ring, { depth: 10 }) + JSON.stringify(ring);
    for (const key of [K1, K2]) {
      expect(text).not.toContain(b64(key));
      expect(text).not.toContain(key.toString("hex"));
    }
  });

  it.each([
    ["not base64", "not base64!!", undefined, /^SECRET_KEK must be standard base64/],
    [
      "url-safe base64",
      b64(Buffer.alloc(32, 0xfb)).replace(/\+/g, "-").replace(/\//g, "_"),
      undefined,
      /^SECRET_KEK must be standard base64/,
    ],
    ["31 bytes", b64(randomBytes(31)), undefined, /^SECRET_KEK must be base64 of exactly 32 bytes \(got 31 bytes\)/],
    ["33 bytes", b64(randomBytes(33)), undefined, /^SECRET_KEK must be base64 of exactly 32 bytes \(got 33 bytes\)/],
    ["hex instead of base64", K1.toString("hex"), undefined, /^SECRET_KEK must be base64 of exactly 32 bytes/],
    ["id without key", "k1:", undefined, /^SECRET_KEK must be standard base64/],
    ["bad id", `k 1:${b64(K1)}`, undefined, /^SECRET_KEK has an invalid KEK id/],
    ["bad previous", b64(K1), `${b64(K2)},abc`, /^SECRET_KEK_PREVIOUS\[1\] must be standard base64/],
    ["short previous", b64(K1), b64(randomBytes(16)), /^SECRET_KEK_PREVIOUS\[0\] must be base64 of exactly 32 bytes/],
    ["stray comma", b64(K1), `${b64(K2)},`, /^SECRET_KEK_PREVIOUS\[1\] is empty/],
    [
      "id reused for another key",
      `k1:${b64(K1)}`,
      `k1:${b64(K2)}`,
      /^SECRET_KEK_PREVIOUS\[0\] has KEK id "k1", already used/,
    ],
  ])("throws a clear error naming the variable: %s", (_name, current, previous, message) => {
    expect(() => parseKeyring(current, previous, "production")).toThrow(message);
  });

  it("never echoes a bad value in the error", () => {
    for (const [current, previous] of [
      [`${b64(K1)}AAAA`, undefined], // valid base64, 35 bytes
      [b64(K2), `${b64(K1)}AAAA`],
    ] as const) {
      let caught: unknown;
      try {
        parseKeyring(current, previous, "production");
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(Error);
      expect((caught as Error).message).not.toContain(b64(K1));
      expect((caught as Error).message).not.toContain(b64(K2));
    }
  });
});
