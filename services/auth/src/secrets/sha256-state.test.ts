import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ResumableSha256 } from "./sha256-state.ts";

describe("ResumableSha256", () => {
  it("resuming from an exported one-block state equals hashing the whole message", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.uint8Array({ maxLength: 300 }), (block, rest) => {
        const first = new ResumableSha256();
        first.update(block);
        const resumed = ResumableSha256.afterOneBlock(first.exportState());
        resumed.update(rest);
        const expected = createHash("sha256").update(block).update(rest).digest("hex");
        expect(Buffer.from(resumed.digest()).toString("hex")).toBe(expected);
      }),
    );
  });

  it("refuses to export off a block boundary and rejects bad state sizes", () => {
    const h = new ResumableSha256();
    h.update(new Uint8Array(10));
    expect(() => h.exportState()).toThrow(/block boundary/);
    expect(() => ResumableSha256.afterOneBlock(new Uint8Array(31))).toThrow(RangeError);
  });
});
