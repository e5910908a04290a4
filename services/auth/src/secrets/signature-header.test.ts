import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSignatureHeader } from "./signature-header.ts";

const HEX = "ea7912d1e9662c483f7bc3f1a274aad649d88948c240e2c5cc1e4b14c8e67857";
const BYTES = Buffer.from(HEX, "hex");

describe("parseSignatureHeader", () => {
  it.each([
    ["lowercase", HEX],
    ["uppercase", HEX.toUpperCase()],
    ["mixed case", `${HEX.slice(0, 32).toUpperCase()}${HEX.slice(32)}`],
    ["sha256= prefix", `sha256=${HEX}`],
    ["sha256= prefix, uppercase hex", `sha256=${HEX.toUpperCase()}`],
  ])("accepts %s", (_name, value) => {
    const parsed = parseSignatureHeader(value);
    expect(parsed).not.toBeNull();
    expect(parsed?.equals(BYTES)).toBe(true);
    expect(parsed?.length).toBe(32);
  });

  it.each([
    ["empty", ""],
    ["63 chars", HEX.slice(0, 63)],
    ["65 chars", `${HEX}0`],
    ["128 chars", HEX + HEX],
    ["non-hex", `${HEX.slice(0, 63)}g`],
    ["sha1= prefix", `sha1=${HEX}`],
    ["sha1= with 40 hex", `sha1=${HEX.slice(0, 40)}`],
    ["prefix only", "sha256="],
    ["prefix, 63 chars", `sha256=${HEX.slice(0, 63)}`],
    ["double prefix", `sha256=sha256=${HEX}`],
    ["leading space", ` ${HEX}`],
    ["trailing newline", `${HEX}\n`],
    ["base64 of the bytes", BYTES.toString("base64")],
    ["0x prefix", `0x${HEX}`],
  ])("rejects %s without throwing", (_name, value) => {
    expect(parseSignatureHeader(value)).toBeNull();
  });

  it("rejects non-string values (missing or repeated header) without throwing", () => {
    for (const value of [undefined, null, 42, [HEX], { HEX }, Buffer.from(HEX)]) {
      expect(parseSignatureHeader(value)).toBeNull();
    }
  });

  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.anything()), (value) => {
        const parsed = parseSignatureHeader(value);
        expect(parsed === null || parsed.length === 32).toBe(true);
      }),
    );
  });
});
