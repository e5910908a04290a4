import { describe, expect, it } from "vitest";
import { hasVisibleText } from "./visible-text.ts";

describe("hasVisibleText", () => {
  it.each([
    ["nothing", ""],
    ["spaces", "   "],
    ["tabs and newlines", "\t\r\n\v\f"],
    ["Unicode spaces", "\u00a0\u1680\u2000\u200a\u202f\u205f\u3000"],
    ["line and paragraph separators", "\u2028\u2029"],
    ["zero-width characters and the BOM", "\u200b\u200c\u200d\u2060\ufeff"],
    ["bidi marks", "\u200e\u200f\u202a\u202e"],
    ["a soft hyphen and a combining grapheme joiner", "\u00ad\u034f"],
    ["Hangul fillers", "\u115f\u1160\u3164\uffa0"],
    ["variation selectors and tags", "\ufe0f\u{e0100}\u{e0041}"],
    ["the blank Braille pattern", "\u2800"],
    ["control characters", "\u0001\u007f\u0085"],
  ])("finds none in %s", (_name, value) => {
    expect(hasVisibleText(value)).toBe(false);
  });

  it.each([
    ["a letter", "a"],
    ["a word among spaces", "  disk full  "],
    ["an emoji", "😀"],
    ["a flag", "🏴"],
    ["a digit", "\u3000 1"],
  ])("finds %s", (_name, value) => {
    expect(hasVisibleText(value)).toBe(true);
  });
});
