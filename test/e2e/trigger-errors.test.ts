// Spec §5 and §7 (trigger endpoint) and DESIGN §2's order of checks, through real HTTP.
import { NOT_FOUND_SENTENCES } from "@pulsegate/contract/not-found";
import { describe, expect, inject, it } from "vitest";
import { Client, sign } from "../support/client.ts";

const client = new Client(inject("stack"));
const past = new Date(Date.now() - 86_400_000).toISOString();

function expectError(response: { status: number; body: Record<string, unknown> }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({ code, error: expect.any(String), requestId: expect.any(String) });
  expect((response.body.error as string).length).toBeGreaterThan(5);
}

describe("authentication (spec §5)", () => {
  it("401 with the exact body when the signature header is missing", async () => {
    const { webhookUrl } = await client.setup();
    const response = await client.trigger(webhookUrl, { title: "x" }, { signature: null });
    expect(response.status).toBe(401);
    expect(response.body.error).toBe("Missing webhook signature");
    expect(response.body.code).toBe("missing_signature");
  });

  it("401 when the signature does not match", async () => {
    const { webhookUrl } = await client.setup();
    const response = await client.trigger(webhookUrl, { title: "x" }, { secret: "f".repeat(64) });
    expectError(response, 401, "invalid_signature");
  });

  it("401 when the signature was computed over different bytes than sent", async () => {
    const { secret, webhookUrl } = await client.setup();
    const signed = JSON.stringify({ title: "x", severity: "sev1" }, null, 2);
    const sent = JSON.stringify({ title: "x", severity: "sev1" });
    const response = await client.trigger(webhookUrl, sent, { signature: sign(secret, signed) });
    expectError(response, 401, "invalid_signature");
  });

  it.each([
    ["wrong length", (s: string) => s.slice(0, 63)],
    ["too long", (s: string) => `${s}0`],
    ["non-hex", (s: string) => `${s.slice(0, 63)}g`],
    ["empty", () => ""],
    ["sha1= prefix", (s: string) => `sha1=${s}`],
  ])("401 invalid_signature (never 500) for a %s header", async (_name, mangle) => {
    const { secret, webhookUrl } = await client.setup();
    const body = JSON.stringify({ title: "x" });
    const response = await client.trigger(webhookUrl, body, { signature: mangle(sign(secret, body)) });
    expect([401]).toContain(response.status);
    expect(response.body.code).toMatch(/signature/);
  });

  it("accepts uppercase hex and a sha256= prefix", async () => {
    const { secret, webhookUrl } = await client.setup();
    const body = JSON.stringify({ title: "x" });
    const upper = await client.trigger(webhookUrl, body, { signature: sign(secret, body).toUpperCase() });
    const prefixed = await client.trigger(webhookUrl, body, { signature: `sha256=${sign(secret, body)}` });
    expect(upper.status).toBe(201);
    expect(prefixed.status).toBe(201);
  });
});

describe("trigger errors (spec §7)", () => {
  it("404 for an unknown webhook URL", async () => {
    const response = await client.trigger("no-such-webhook-url-token", { title: "x" }, { secret: "a".repeat(64) });
    expectError(response, 404, "webhook_not_found");
  });

  it("404 (not 500) for a webhook URL that cannot be a token, such as one holding U+0000", async () => {
    const response = await client.trigger("bad%00token", { title: "x" }, { secret: "a".repeat(64) });
    expectError(response, 404, "webhook_not_found");
  });

  it("answers webhook_not_found with one sentence, for an unknown URL as for an unknown id", async () => {
    const byUrl = await client.trigger("no-such-webhook-url-token", { title: "x" }, { secret: "a".repeat(64) });
    const byId = await client.admin("GET", "/webhooks/wh_nope");
    for (const response of [byUrl, byId]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: "webhook_not_found", error: NOT_FOUND_SENTENCES.webhook_not_found });
    }
  });

  it("404 for a disabled webhook, even with a valid signature", async () => {
    const { secret, webhookUrl } = await client.setup({}, { enabled: false });
    const response = await client.trigger(webhookUrl, { title: "x" }, { secret });
    expectError(response, 404, "webhook_not_found");
  });

  it("404 at once for a webhook just disabled through the admin API, while the gateway still caches it", async () => {
    const { secret, webhookId, webhookUrl } = await client.setup();
    expect((await client.trigger(webhookUrl, { title: "x" }, { secret })).status).toBe(201);
    expect((await client.admin("PATCH", `/webhooks/${webhookId}`, { enabled: false })).status).toBe(200);
    // The gateway's look-up is still fresh; alerts forgot its own copy when the change went through it.
    expectError(await client.trigger(webhookUrl, { title: "x" }, { secret }), 404, "webhook_not_found");
  });

  it("403 when the team's subscription has expired", async () => {
    const { secret, webhookUrl } = await client.setup({ subscriptionExpiresAt: past });
    const response = await client.trigger(webhookUrl, { title: "x" }, { secret });
    expectError(response, 403, "subscription_expired");
  });

  it.each([
    ["a missing title", { description: "no title" }, "title"],
    ["a title over 200 characters", { title: "t".repeat(201) }, "title"],
    ["a title of only spaces", { title: "   " }, "title"],
    ["a title of only invisible characters", { title: "\u200b\u3000\ufeff\t" }, "title"],
    ["a description over 2000 characters", { title: "x", description: "d".repeat(2001) }, "description"],
    ["an invalid severity", { title: "x", severity: "sev5" }, "severity"],
    ["metadata over 100 KB", { title: "x", metadata: { blob: "m".repeat(102_400) } }, "metadata"],
    ["metadata nested 11 levels", { title: "x", metadata: nest(11) }, "metadata"],
    ["a group_key over 200 characters", { title: "x", group_key: "g".repeat(201) }, "group_key"],
    ["metadata that is not an object", { title: "x", metadata: [1, 2] }, "metadata"],
  ])("400 invalid_request for %s, naming the field", async (_name, body, field) => {
    const { secret, webhookUrl } = await client.setup();
    const response = await client.trigger(webhookUrl, body, { secret });
    expectError(response, 400, "invalid_request");
    expect(response.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  it("accepts the limits themselves: 200-character title, 10 nesting levels, 200 emoji", async () => {
    const { secret, webhookUrl } = await client.setup();
    const response = await client.trigger(
      webhookUrl,
      { title: "🔥".repeat(200), description: "d".repeat(2000), metadata: nest(10), group_key: "g".repeat(200) },
      { secret },
    );
    expect(response.status).toBe(201);
  });

  it("400 invalid_json for a body that is not JSON, 400 for a JSON array", async () => {
    const { secret, webhookUrl } = await client.setup();
    expectError(await client.trigger(webhookUrl, "{not json", { secret }), 400, "invalid_json");
    expectError(await client.trigger(webhookUrl, "[1,2]", { secret }), 400, "invalid_request");
  });

  it("415 when the Content-Type is not JSON", async () => {
    const { secret, webhookUrl } = await client.setup();
    const response = await client.trigger(webhookUrl, "title=x", {
      secret,
      contentType: "application/x-www-form-urlencoded",
    });
    expectError(response, 415, "unsupported_media_type");
  });

  it("413 for a body over 1 MiB", async () => {
    const { secret, webhookUrl } = await client.setup();
    const body = JSON.stringify({ title: "x", metadata: { blob: "b".repeat(1_100_000) } });
    const response = await client.trigger(webhookUrl, body, { secret });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe("payload_too_large");
  });

  it("413 read by a caller still sending a 6 MiB body (the gateway reads the rest before answering)", async () => {
    const { secret, webhookUrl } = await client.setup();
    const body = JSON.stringify({ title: "x", metadata: { blob: "b".repeat(6 * 1024 * 1024) } });
    for (let i = 0; i < 3; i++) {
      const response = await client.trigger(webhookUrl, body, { secret });
      expect([response.status, response.body.code]).toEqual([413, "payload_too_large"]);
    }
  });

  it("429 rate_limited after exactly the per-webhook limit, with Retry-After and RateLimit headers", async () => {
    const { secret, webhookUrl } = await client.setup({}, { rateLimitPerMinute: 5 });
    const responses = [];
    for (let i = 0; i < 7; i++) {
      responses.push(await client.trigger(webhookUrl, { title: `r${i}`, group_key: "rl" }, { secret }));
    }
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201, 201, 429, 429]);
    const limited = responses[5];
    expectError(limited as never, 429, "rate_limited");
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(responses[0]?.headers.get("ratelimit-limit")).toBe("5");
    expect(responses[4]?.headers.get("ratelimit-remaining")).toBe("0");
  });

  it("429 alert_quota_exhausted once the monthly quota is used; folds still pass", async () => {
    const { secret, webhookUrl } = await client.setup({ alertQuotaMonthly: 1 });
    const first = await client.trigger(webhookUrl, { title: "a", group_key: "a" }, { secret });
    expect(first.status).toBe(201);
    const fold = await client.trigger(webhookUrl, { title: "a", group_key: "a" }, { secret });
    expect(fold.body.status).toBe("occurrence_added");
    expectError(
      await client.trigger(webhookUrl, { title: "b", group_key: "b" }, { secret }),
      429,
      "alert_quota_exhausted",
    );
  });
});

describe("order of checks (DESIGN §2)", () => {
  it("missing signature comes before an unknown webhook", async () => {
    const response = await client.trigger("unknown-token", { title: "x" }, { signature: null });
    expect(response.status).toBe(401);
  });

  it("unknown webhook comes before a bad signature", async () => {
    const response = await client.trigger("unknown-token", { title: "x" }, { signature: "0".repeat(64) });
    expect(response.status).toBe(404);
  });

  it("a bad signature comes before an expired subscription", async () => {
    const { webhookUrl } = await client.setup({ subscriptionExpiresAt: past });
    const response = await client.trigger(webhookUrl, { title: "x" }, { signature: "0".repeat(64) });
    expect(response.status).toBe(401);
  });

  it("an expired subscription comes before body validation", async () => {
    const { secret, webhookUrl } = await client.setup({ subscriptionExpiresAt: past });
    const response = await client.trigger(webhookUrl, { nope: true }, { secret });
    expect(response.status).toBe(403);
  });

  it("the rate limit comes before body validation", async () => {
    const { secret, webhookUrl } = await client.setup({}, { rateLimitPerMinute: 1 });
    expect((await client.trigger(webhookUrl, { nope: true }, { secret })).status).toBe(400);
    expect((await client.trigger(webhookUrl, { nope: true }, { secret })).status).toBe(429);
  });
});

function nest(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { deeper: value };
  return value;
}
