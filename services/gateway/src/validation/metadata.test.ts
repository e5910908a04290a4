import { describe, expect, it } from "vitest";
import { codePointLength } from "./field-checks.ts";
import { checkMetadata } from "./metadata.ts";
import { nestedObject, objectOfBytes } from "./test-helpers.ts";

describe("codePointLength", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(codePointLength("")).toBe(0);
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength("😀")).toBe(1);
    expect("😀".length).toBe(2);
    expect(codePointLength("é😀x")).toBe(3);
    expect(codePointLength("\uD800")).toBe(1); // lone surrogate
  });
});

describe("checkMetadata", () => {
  it("accepts objects, including {}", () => {
    expect(checkMetadata({}, "metadata")).toEqual([]);
    expect(checkMetadata({ a: [1, { b: null }] }, "metadata")).toEqual([]);
  });

  it("rejects non-objects", () => {
    for (const value of [null, [], [{}], "x", 1, true]) {
      expect(checkMetadata(value, "metadata")).toEqual([{ field: "metadata", message: "metadata must be an object." }]);
    }
  });

  it("allows 10 levels and rejects 11 (objects)", () => {
    expect(checkMetadata(nestedObject(10), "metadata")).toEqual([]);
    expect(checkMetadata(nestedObject(11), "metadata")).toEqual([
      {
        field: "metadata",
        message: "metadata must be nested at most 10 levels deep.",
      },
    ]);
  });

  it("counts arrays as levels", () => {
    const nine = nestedObject(9);
    expect(checkMetadata({ a: [nestedObject(8)] }, "metadata")).toEqual([]); // 1 + 1 + 8 = 10
    expect(checkMetadata({ a: [nine] }, "metadata")).toHaveLength(1); // 11
    expect(checkMetadata({ a: [[[[[[[[[1]]]]]]]]] }, "metadata")).toEqual([]); // 1 + 9
    expect(checkMetadata({ a: [[[[[[[[[[1]]]]]]]]]] }, "metadata")).toHaveLength(1); // 1 + 10
  });

  it("allows 102400 bytes of JSON and rejects 102401", () => {
    const ok = objectOfBytes(102_400);
    const tooBig = objectOfBytes(102_401);
    expect(Buffer.byteLength(JSON.stringify(ok))).toBe(102_400);
    expect(Buffer.byteLength(JSON.stringify(tooBig))).toBe(102_401);
    expect(checkMetadata(ok, "metadata")).toEqual([]);
    expect(checkMetadata(tooBig, "metadata")).toEqual([
      {
        field: "metadata",
        message: "metadata must be at most 102400 bytes as JSON.",
      },
    ]);
  });

  it("counts UTF-8 bytes, not characters", () => {
    const ok = objectOfBytes(102_400, "😀");
    const tooBig = objectOfBytes(102_401, "😀");
    expect(JSON.stringify(ok).length).toBeLessThan(102_400);
    expect(checkMetadata(ok, "metadata")).toEqual([]);
    expect(checkMetadata(tooBig, "metadata")).toHaveLength(1);
  });

  it("uses the given field name", () => {
    expect(checkMetadata(null, "payload.metadata")).toEqual([
      {
        field: "payload.metadata",
        message: "payload.metadata must be an object.",
      },
    ]);
  });
});
