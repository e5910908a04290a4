import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OutputTail, sanitizeOutput } from "./output-tail.ts";

describe("OutputTail", () => {
  it("keeps the last bytes of everything pushed, however it was chunked", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 })), fc.integer({ min: 1, max: 600 }), (chunks, limit) => {
        const tail = new OutputTail(limit);
        for (const chunk of chunks) tail.push(Buffer.from(chunk));
        const all = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk)));
        expect(tail.truncated).toBe(all.length > limit);
        expect(tail.text()).toBe(sanitizeOutput(all.subarray(Math.max(0, all.length - limit)), all.length > limit));
      }),
    );
  });

  it("drops a character cut in two by the limit, not the ones after it", () => {
    const tail = new OutputTail(4);
    tail.push(Buffer.from("ab☕cd")); // ☕ is 3 bytes: the last 4 start at its second byte
    expect(tail.text()).toBe("cd");
    const whole = new OutputTail(5);
    whole.push(Buffer.from("ab☕cd"));
    expect(whole.text()).toBe("☕cd");
  });
});

describe("sanitizeOutput", () => {
  it("always gives well-formed text without NUL or controls but tab and newline", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), fc.boolean(), (bytes, cut) => {
        const text = sanitizeOutput(bytes, cut);
        expect(text.isWellFormed()).toBe(true);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: none of these may remain.
        expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(bytes.length * 3);
      }),
    );
  });

  it("removes colours and cursor codes, keeps the words; invalid bytes become U+FFFD", () => {
    const bytes = Buffer.concat([
      Buffer.from("\u001b[31mERROR\u001b[0m disk full\r\n\u001b]0;title\u0007done\u0000\n"),
      Buffer.from([0xff, 0x41]),
    ]);
    expect(sanitizeOutput(bytes)).toBe("ERROR disk full\ndone\n\uFFFDA");
  });
});
