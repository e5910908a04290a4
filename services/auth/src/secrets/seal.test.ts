import { randomBytes } from "node:crypto";
import { parseKeyring, SealedValueError, sealedValueKekId } from "@pulsegate/sealing";
import { describe, expect, it } from "vitest";
import { deriveHmacStates, hmacFromStates } from "./hmac-states.ts";
import { resealStates, sealStates, unsealStates } from "./seal.ts";
import { openStates } from "./verifier-key.ts";

const OLD = randomBytes(32).toString("base64");
const NEW = randomBytes(32).toString("base64");
const ring = parseKeyring(OLD, undefined, "production");
const otherRing = parseKeyring(NEW, undefined, "production");
const ctx = "pulsegate:team-secret:team_1:fp1";
const SECRET = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const STATES = deriveHmacStates(SECRET);

function openError(fn: () => unknown): SealedValueError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SealedValueError);
    return error as SealedValueError;
  }
  throw new Error("expected open to fail");
}

describe("sealStates / unsealStates", () => {
  it("round-trips, names the KEK id, and uses a fresh IV each time", () => {
    const a = sealStates(STATES, ring, ctx);
    const b = sealStates(STATES, ring, ctx);
    expect(a.length).toBe(2 + 8 + 12 + 64 + 16);
    expect(a[0]).toBe(1);
    expect(sealedValueKekId(a)).toBe(ring.current.id);
    expect(a.equals(b)).toBe(false);
    expect(unsealStates(a, ring, ctx).equals(Buffer.from(STATES))).toBe(true);
    expect(unsealStates(b, ring, ctx).equals(Buffer.from(STATES))).toBe(true);
    expect(a.includes(Buffer.from(STATES))).toBe(false);
    expect(a.includes(Buffer.from(STATES.subarray(0, 16)))).toBe(false);
  });

  it("fails with a clear error when any byte of the blob is tampered with", () => {
    const sealed = sealStates(STATES, ring, ctx);
    for (let i = 0; i < sealed.length; i++) {
      const tampered = Buffer.from(sealed);
      tampered[i] = (tampered[i] ?? 0) ^ 0x01;
      const error = openError(() => unsealStates(tampered, ring, ctx));
      expect(error.message).toMatch(/^sealed HMAC states: /);
      if (i >= 10) {
        expect(error.code).toBe("auth_failed");
        expect(error.message).toMatch(/authentication failed/);
      }
    }
  });

  it("fails on truncated, extended, empty or unknown-version blobs", () => {
    const sealed = sealStates(STATES, ring, ctx);
    expect(openError(() => unsealStates(sealed.subarray(0, sealed.length - 1), ring, ctx)).code).toBe("malformed");
    expect(openError(() => unsealStates(Buffer.concat([sealed, Buffer.of(0)]), ring, ctx)).code).toBe("malformed");
    expect(openError(() => unsealStates(Buffer.alloc(0), ring, ctx)).code).toBe("malformed");
    const v2 = Buffer.from(sealed);
    v2[0] = 2;
    const error = openError(() => unsealStates(v2, ring, ctx));
    expect(error.code).toBe("unsupported_version");
    expect(error.message).toMatch(/unsupported format version 2/);
  });

  it("fails with the wrong AAD (other team, other fingerprint, prefix/suffix)", () => {
    const sealed = sealStates(STATES, ring, ctx);
    for (const other of [
      "pulsegate:team-secret:team_2:fp1",
      "pulsegate:team-secret:team_1:fp2",
      "pulsegate:team-secret:team_1:fp",
      "pulsegate:team-secret:team_1:fp1 ",
    ]) {
      const error = openError(() => unsealStates(sealed, ring, other));
      expect(error.code).toBe("auth_failed");
      expect(() => openStates(sealed, ring, other)).toThrow(SealedValueError);
    }
    expect(unsealStates(sealed, ring, ctx).length).toBe(64);
  });

  it("fails with the wrong KEK", () => {
    const sealed = sealStates(STATES, ring, ctx);
    const unknown = openError(() => unsealStates(sealed, otherRing, ctx));
    expect(unknown.code).toBe("unknown_kek");
    expect(unknown.message).toContain(ring.current.id);
    expect(unknown.message).toMatch(/SECRET_KEK/);

    // Relabel the blob with the other keyring's KEK id: the key is now wrong (and the header changed).
    const relabeled = Buffer.from(sealed);
    relabeled.write(otherRing.current.id, 2, "ascii");
    const wrongKey = openError(() => unsealStates(relabeled, otherRing, ctx));
    expect(wrongKey.code).toBe("auth_failed");
    expect(wrongKey.message).toContain(otherRing.current.id);
  });

  it("supports KEK rotation: previous KEKs open, reseal moves to the current KEK", () => {
    const sealedOld = sealStates(STATES, ring, ctx);
    const rotated = parseKeyring(NEW, OLD, "production");
    expect(unsealStates(sealedOld, rotated, ctx).equals(Buffer.from(STATES))).toBe(true);
    const resealed = resealStates(sealedOld, rotated, ctx);
    expect(sealedValueKekId(resealed)).toBe(otherRing.current.id);
    const key = openStates(resealed, otherRing, ctx); // old KEK no longer needed
    // printf 'hello' | openssl dgst -sha256 -hmac 000102...1e1f
    expect(hmacFromStates(key, "hello").toString("hex")).toBe(
      "b49bbe02310cc1ca6cbcc785bd0d608d032232984c64a65eeae0a46e4be84ece",
    );
  });

  it("opens states sealed before the sealing package held the format, and seals them the same way", () => {
    // Sealed by auth's own AES-GCM code, which this format replaced: 32 bytes of 0x42 as the KEK.
    const stored = Buffer.from(
      "01083432356564346534643c0bf3825abad83d319a2790d9ff9e0928a8836f1dc0b344754de382c1c1a6c13ed243da4ba4106937ca" +
        "dd1c9dedac49a810da6f28d088463dc066461a815903eabbe6669ad3079720cb94fa2c5f74e937e8c0f91d44718ecffb4b",
      "hex",
    );
    const fixed = parseKeyring(Buffer.alloc(32, 0x42).toString("base64"), undefined, "production");
    expect(sealedValueKekId(stored)).toBe("425ed4e4");
    expect(unsealStates(stored, fixed, ctx).equals(Buffer.from(STATES))).toBe(true);
    // A fresh seal has the same layout and header (only the random IV, and so the rest, differ).
    const fresh = sealStates(STATES, fixed, ctx);
    expect(fresh.length).toBe(stored.length);
    expect(fresh.subarray(0, 10).equals(stored.subarray(0, 10))).toBe(true);
    expect(openError(() => unsealStates(stored, fixed, "pulsegate:team-secret:team_1:fp2")).code).toBe("auth_failed");
  });

  it("rejects bad inputs to seal", () => {
    expect(() => sealStates(new Uint8Array(63), ring, ctx)).toThrow(RangeError);
    expect(() => sealStates(STATES, ring, "")).toThrow(/aad/);
  });
});
