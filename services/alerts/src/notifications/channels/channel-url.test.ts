import { describe, expect, it } from "vitest";
import { checkChannelUrl, type ResolveAll } from "./channel-url.ts";

const resolvesTo =
  (...addresses: string[]): ResolveAll =>
  async () =>
    addresses.map((address) => ({ address }));

const strict = (resolve: ResolveAll = resolvesTo("93.184.216.34")) => ({ allowPrivateNetworks: false, resolve });

describe("checkChannelUrl", () => {
  it("accepts a public https URL", async () => {
    const result = await checkChannelUrl("https://hooks.slack.com/services/T0/B0/x", strict());
    expect(result).toEqual({ url: "https://hooks.slack.com/services/T0/B0/x" });
  });

  it.each([
    ["", "url is required."],
    ["hooks.slack.com/services/x", "url must be an absolute http or https URL."],
    ["ftp://example.com/x", "url must use http or https."],
    ["file:///etc/passwd", "url must use http or https."],
    ["https://user:pass@example.com/x", "url must not contain a user name or password."],
    [`https://example.com/${"a".repeat(2_100)}`, "url must be at most 2048 characters."],
  ])("refuses %j: %s", async (url, message) => {
    expect(await checkChannelUrl(url, strict())).toEqual({ error: { field: "url", message } });
  });

  it.each([
    "http://127.0.0.1:8080/hook",
    "http://[::1]/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://10.0.0.5/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[fd00::1]/hook",
    "http://0.0.0.0/hook",
    // WHATWG URL parsing turns these into 127.0.0.1.
    "http://2130706433/hook",
    "http://0x7f.1/hook",
  ])("refuses the private address literal in %s", async (url) => {
    const result = await checkChannelUrl(url, strict());
    expect(result).toEqual({
      error: {
        field: "url",
        message: "url points to a loopback, private or link-local address; notifications go to public addresses only.",
      },
    });
  });

  it("refuses a name that resolves to any private address", async () => {
    const result = await checkChannelUrl(
      "https://internal.example.com/x",
      strict(resolvesTo("93.184.216.34", "10.0.0.1")),
    );
    expect(result).toMatchObject({ error: { field: "url" } });
  });

  it("refuses localhost through the real resolver", async () => {
    const result = await checkChannelUrl("http://localhost:9/x", { allowPrivateNetworks: false });
    expect(result).toMatchObject({ error: { field: "url" } });
  });

  it("refuses a name that does not resolve", async () => {
    const missing: ResolveAll = async () => {
      throw Object.assign(new Error("nope"), { code: "ENOTFOUND" });
    };
    expect(await checkChannelUrl("https://nowhere.invalid/x", strict(missing))).toEqual({
      error: { field: "url", message: "url names a host that does not resolve." },
    });
  });

  it("accepts private addresses when private networks are allowed", async () => {
    expect(await checkChannelUrl("http://127.0.0.1:8080/hook", { allowPrivateNetworks: true })).toEqual({
      url: "http://127.0.0.1:8080/hook",
    });
  });
});
