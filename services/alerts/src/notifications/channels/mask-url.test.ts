import { describe, expect, it } from "vitest";
import { maskUrl } from "./mask-url.ts";

describe("maskUrl", () => {
  it("keeps scheme, host and the last four characters of a Slack URL", () => {
    const url = "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXabcd";
    const masked = maskUrl(url);
    expect(masked).toBe("https://hooks.slack.com/…abcd");
    expect(masked).not.toContain("T00000000");
    expect(masked).not.toContain("B00000000");
  });

  it("keeps the port and hides the query", () => {
    expect(maskUrl("http://127.0.0.1:8080/hooks/incoming?token=s3cr3tvalue")).toBe("http://127.0.0.1:8080/…alue");
  });

  it("shows nothing of a short path", () => {
    expect(maskUrl("https://example.com/abc")).toBe("https://example.com/…");
    expect(maskUrl("https://example.com")).toBe("https://example.com/…");
  });

  it("never fails on text that is not a URL", () => {
    expect(maskUrl("not a url")).toBe("…");
  });
});
