import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { kekId, parseKeyring } from "./keyring.ts";
import { openValue, resealValue, SealedValueError, sealedValueKekId, sealValue } from "./seal-value.ts";

const OLD = randomBytes(32);
const NEW = randomBytes(32);
const old = parseKeyring(OLD.toString("base64"), undefined, "production");
const both = parseKeyring(`${NEW.toString("base64")},${OLD.toString("base64")}`, undefined, "production");
const onlyNew = parseKeyring(NEW.toString("base64"), undefined, "production");
const url = Buffer.from("https://hooks.slack.com/services/T000/B000/secret-token");

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof SealedValueError ? error.code : "other";
  }
  return undefined;
}

describe("sealed values", () => {
  it("round-trips, names its KEK, and never contains the plaintext", () => {
    const sealed = sealValue(url, old, "channel-credentials", "ch_1");
    expect(sealed.includes(url)).toBe(false);
    expect(sealedValueKekId(sealed)).toBe(kekId(OLD));
    expect(openValue(sealed, old, "channel-credentials", "ch_1").equals(url)).toBe(true);
    // A fresh IV per seal.
    expect(sealValue(url, old, "channel-credentials", "ch_1").equals(sealed)).toBe(false);
  });

  it("opens only for its owner and purpose, and refuses a tampered byte", () => {
    const sealed = sealValue(url, old, "channel-credentials", "ch_1");
    expect(codeOf(() => openValue(sealed, old, "channel-credentials", "ch_2"))).toBe("auth_failed");
    expect(codeOf(() => openValue(sealed, old, "other-purpose", "ch_1"))).toBe("auth_failed");
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 20] = (tampered[tampered.length - 20] ?? 0) ^ 1;
    expect(codeOf(() => openValue(tampered, old, "channel-credentials", "ch_1"))).toBe("auth_failed");
    expect(codeOf(() => openValue(Buffer.from([1, 0]), old, "channel-credentials", "ch_1"))).toBe("malformed");
    const otherVersion = Buffer.from(sealed);
    otherVersion[0] = 2;
    expect(codeOf(() => openValue(otherVersion, old, "channel-credentials", "ch_1"))).toBe("unsupported_version");
    expect(codeOf(() => openValue(sealed, old, "channel-credentials", "ch_1", url.length + 1))).toBe("malformed");
  });

  it("refuses to seal under a KEK id that its one length byte cannot hold", () => {
    const longId = { ...old, current: { ...old.current, id: "k".repeat(256) } };
    expect(() => sealValue(url, longId, "channel-credentials", "ch_1")).toThrow(/KEK id must be 1\.\.255 ASCII bytes/);
  });

  it("re-seals under the newest KEK, after which the old KEK is no longer needed", () => {
    const sealed = sealValue(url, old, "channel-credentials", "ch_1");
    expect(codeOf(() => openValue(sealed, onlyNew, "channel-credentials", "ch_1"))).toBe("unknown_kek");
    const resealed = resealValue(sealed, both, "channel-credentials", "ch_1");
    expect(sealedValueKekId(resealed)).toBe(kekId(NEW));
    expect(openValue(resealed, onlyNew, "channel-credentials", "ch_1").equals(url)).toBe(true);
  });
});
