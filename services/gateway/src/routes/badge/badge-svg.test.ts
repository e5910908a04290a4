import { describe, expect, it } from "vitest";
import { badgeSvg } from "./badge-svg.ts";

/** XML 1.0 §2.2: the characters a document may contain at all. */
const XML_CHARS = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

const titleOf = (svg: string) => /<title>(.*)<\/title>/s.exec(svg)?.[1];

describe("badgeSvg", () => {
  it("escapes markup in the name, in text and in the aria-label attribute", () => {
    const svg = badgeSvg(`a<b>&"c'`, "up");
    expect(titleOf(svg)).toBe("a&#60;b&#62;&#38;&#34;c&#39;: up");
    expect(svg).toContain('aria-label="a&#60;b&#62;&#38;&#34;c&#39;: up"');
    expect(svg).not.toContain("<b>");
  });

  it("replaces what XML 1.0 cannot contain (controls, unpaired surrogates, U+FFFE, U+FFFF) with U+FFFD", () => {
    const svg = badgeSvg("a\u0001b\u0000c\u001bd\ud800e\ufffef\uffffg", "down");
    expect(XML_CHARS.test(svg)).toBe(true);
    expect(titleOf(svg)).toBe("a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf\ufffdg: down");
  });

  it("keeps every other character, astral ones included", () => {
    const svg = badgeSvg("Nightly backup ☕ 😀\tDEL\u007f", "idle");
    expect(XML_CHARS.test(svg)).toBe(true);
    expect(titleOf(svg)).toBe("Nightly backup ☕ 😀\tDEL\u007f: idle");
  });
});
