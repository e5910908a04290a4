import { describe, expect, it } from "vitest";
import { findUnstorableText, textFault } from "./unstorable-text.ts";

describe("textFault", () => {
  it("finds U+0000 and unpaired surrogates, and accepts paired ones", () => {
    expect(textFault("a\u0000b")).toBe("nul");
    expect(textFault("\ud800")).toBe("lone_surrogate");
    expect(textFault("\udfff")).toBe("lone_surrogate");
    expect(textFault("a\ud800b")).toBe("lone_surrogate");
    expect(textFault("\ud83d\ude00")).toBeNull();
    expect(textFault("\ufffd")).toBeNull();
    expect(textFault("plain")).toBeNull();
  });
});

describe("findUnstorableText", () => {
  it("names every faulty value and key by its path in the body", () => {
    const body = JSON.parse(
      '{"title":"ok","metadata":{"k":"\\u0000","list":["fine","\\udfff"],"deep":{"\\ud800":1}}}',
    ) as unknown;
    expect(findUnstorableText(body, "")).toEqual([
      { field: "metadata.k", message: "metadata.k must not contain the NUL character (U+0000)." },
      {
        field: "metadata.list[1]",
        message:
          "metadata.list[1] must be well-formed Unicode (an unpaired surrogate such as \\udfff cannot be stored).",
      },
      {
        field: "metadata.deep.\ud800",
        message:
          "metadata.deep.\ud800: keys must be well-formed Unicode (an unpaired surrogate such as \\udfff cannot be stored).",
      },
    ]);
  });

  it("checks every level, however deep: no depth at which a bad string passes unchecked", () => {
    let deep: unknown = "\ud800";
    for (let i = 0; i < 100_000; i++) deep = { a: [deep] };
    const [problem, ...more] = findUnstorableText(deep, "metadata");
    expect(more).toEqual([]);
    expect(problem?.field).toBe(`metadata${".a[0]".repeat(100_000)}`);
    const json = `${'{"a":'.repeat(70)}${String.raw`"x\u0000"`}${"}".repeat(70)}`;
    expect(findUnstorableText(JSON.parse(json), "")).toHaveLength(1);
  });

  it("finds nothing in clean values, numbers, null and nothing", () => {
    expect(findUnstorableText({ a: "x", b: 1, c: null, d: [true, "😀"] }, "metadata")).toEqual([]);
    expect(findUnstorableText(undefined, "")).toEqual([]);
  });
});
