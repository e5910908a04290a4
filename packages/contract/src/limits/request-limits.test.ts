import { describe, expect, it } from "vitest";
import { bytesText, REQUEST_LIMITS } from "./request-limits.ts";

describe("bytesText", () => {
  it("says the public body limit as the interface does", () => {
    expect(bytesText(REQUEST_LIMITS.bodyMaxBytes)).toBe("1 MiB");
  });

  it("uses the largest unit that divides the count, bytes otherwise", () => {
    expect(bytesText(512 * 1024)).toBe("512 KiB");
    expect(bytesText(3 * 2 ** 20 + 1)).toBe("3145729 bytes");
    expect(bytesText(100)).toBe("100 bytes");
  });
});
