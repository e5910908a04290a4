import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, TEST_ADMIN_TOKEN } from "../../testing/build-test-app.ts";

const auth = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe("admin API", () => {
  let app: FastifyInstance;
  beforeAll(() => {
    app = buildTestApp();
  });
  afterAll(() => app.close());

  it.each([
    ["no header", {}],
    ["a wrong token", { authorization: "Bearer wrong" }],
    ["another scheme", { authorization: `Basic ${TEST_ADMIN_TOKEN}` }],
  ])("answers %s with 401 unauthorized", async (_name, headers) => {
    const response = await app.inject({ method: "GET", url: "/admin/v1/teams/t1", headers });
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json()).toEqual({
      error: "A valid admin token or team API key is required.",
      code: "unauthorized",
      requestId: response.headers["x-request-id"],
    });
  });

  it("checks the token before reading the body", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/admin/v1/teams",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(401);
  });

  it("reports schema problems as invalid_request with details", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/admin/v1/teams",
      headers: auth,
      payload: { alertQuotaMonthly: -1, extra: true },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe("invalid_request");
    expect(body.requestId).toBe(response.headers["x-request-id"]);
    expect(body.details).toEqual(
      expect.arrayContaining([
        { field: "name", message: "name is required." },
        { field: "extra", message: "extra is not allowed." },
        { field: "alertQuotaMonthly", message: "alertQuotaMonthly must be >= 0." },
      ]),
    );
  });

  it("treats a POST without a body as an empty object", async () => {
    const response = await app.inject({ method: "POST", url: "/admin/v1/teams", headers: auth });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ field: "name", message: "name is required." }]);
  });

  it("does not coerce types", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/admin/v1/teams",
      headers: auth,
      payload: { name: "Ops", alertQuotaMonthly: "10" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details[0].field).toBe("alertQuotaMonthly");
  });

  it("validates webhooks, the shape of filter rules and severities", async () => {
    // Operators themselves are the alerts service's to check (test/e2e/admin-api.test.ts).
    const response = await app.inject({
      method: "POST",
      url: "/admin/v1/teams/t1/webhooks",
      headers: auth,
      payload: { name: "CI", defaultSeverity: "critical", filterRules: [{ field: "title" }] },
    });
    expect(response.statusCode).toBe(400);
    const fields = response.json().details.map((detail: { field: string }) => detail.field);
    expect(fields).toEqual(expect.arrayContaining(["defaultSeverity", "filterRules[0].op"]));
  });

  it("validates query strings", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/admin/v1/teams/t1/alerts?status=closed&limit=1000",
      headers: auth,
    });
    expect(response.statusCode).toBe(400);
    const fields = response.json().details.map((detail: { field: string }) => detail.field);
    expect(fields).toEqual(expect.arrayContaining(["status", "limit"]));
  });

  it("accepts null to clear the subscription expiry but not other non-dates", async () => {
    const response = await app.inject({
      method: "PATCH",
      url: "/admin/v1/teams/t1",
      headers: auth,
      payload: { subscriptionExpiresAt: "tomorrow" },
    });
    expect(response.statusCode).toBe(400);
    const cleared = await app.inject({
      method: "PATCH",
      url: "/admin/v1/teams/t1",
      headers: auth,
      payload: { subscriptionExpiresAt: null },
    });
    expect(cleared.statusCode).toBe(503);
  });

  it.each([
    ["a leap second", "2030-06-30T23:59:60Z"],
    ["year 0000", "0000-01-01T00:00:00Z"],
    ["a moment before 1970", "1969-12-31T23:59:59.999Z"],
    ["a moment after 9999", "9999-12-31T23:59:59-00:01"],
    ["an hours-only offset Date cannot read", "2030-06-30T23:59:59+01"],
  ])("refuses %s in every admin date-time, naming the field once", async (_name, value) => {
    const sentence = (field: string) =>
      `${field} must be a date and time from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, written as in RFC 3339 (2026-03-01T02:00:00Z; no leap second).`;
    const requests = [
      { method: "POST", url: "/admin/v1/teams", payload: { name: "Ops", subscriptionExpiresAt: value } },
      { method: "PATCH", url: "/admin/v1/teams/t1", payload: { subscriptionExpiresAt: value } },
      {
        method: "POST",
        url: "/admin/v1/teams/t1/silences",
        payload: { name: "Window", startsAt: value, endsAt: value },
      },
    ] as const;
    const answers = await Promise.all(requests.map((request) => app.inject({ ...request, headers: auth })));
    expect(answers.map((answer) => [answer.statusCode, answer.json().code])).toEqual([
      [400, "invalid_request"],
      [400, "invalid_request"],
      [400, "invalid_request"],
    ]);
    expect(answers.map((answer) => answer.json().details)).toEqual([
      [{ field: "subscriptionExpiresAt", message: sentence("subscriptionExpiresAt") }],
      [{ field: "subscriptionExpiresAt", message: sentence("subscriptionExpiresAt") }],
      [
        { field: "startsAt", message: sentence("startsAt") },
        { field: "endsAt", message: sentence("endsAt") },
      ],
    ]);
  });

  it("takes any RFC 3339 spelling of an instant within the range", async () => {
    for (const value of ["1970-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "2030-06-30t23:59:59.123456+05:30"]) {
      const response = await app.inject({
        method: "POST",
        url: "/admin/v1/teams",
        headers: auth,
        payload: { name: "Ops", subscriptionExpiresAt: value },
      });
      // Past validation: auth is not running here.
      expect(response.statusCode).toBe(503);
    }
  });

  it("refuses a cursor on every list answered in one page, which makes none", async () => {
    const lists = [
      "/admin/v1/teams/t1/webhooks",
      "/admin/v1/teams/t1/monitors",
      "/admin/v1/teams/t1/channels",
      "/admin/v1/teams/t1/silences",
      "/admin/v1/teams/t1/api-keys",
      "/admin/v1/alerts/a1/deliveries",
    ];
    for (const url of lists) {
      const response = await app.inject({ method: "GET", url: `${url}?cursor=WyIyMDI2Il0`, headers: auth });
      expect({ url, status: response.statusCode, body: response.json() }).toMatchObject({
        url,
        status: 400,
        body: {
          code: "invalid_cursor",
          error: "The cursor is not one this API returned.",
          details: [{ field: "cursor", message: "The cursor is not one this API returned." }],
        },
      });
    }
  });

  it("bounds every free-form JSON value by depth before anything recursive meets it, naming the field", async () => {
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}"x"${"}".repeat(levels)}`;
    const post = (url: string, payload: string) =>
      app.inject({ method: "POST", url, headers: { ...auth, "content-type": "application/json" }, payload });
    const silence = (metadata: string) =>
      post(
        "/admin/v1/teams/t1/silences",
        `{"name":"Deep","startsAt":"2026-01-01T00:00:00Z","endsAt":"2026-01-02T00:00:00Z","matchers":{"metadata":${metadata}}}`,
      );
    const webhook = (value: string) =>
      post(
        "/admin/v1/teams/t1/webhooks",
        `{"name":"Deep","filterRules":[{"field":"metadata.a","op":"==","value":${value}}]}`,
      );
    for (const [answer, field] of [
      [await silence(nested(5_000)), "matchers.metadata"],
      [await silence(nested(11)), "matchers.metadata"],
      [await webhook(nested(5_000)), "filterRules[0].value"],
      [await webhook(nested(11)), "filterRules[0].value"],
    ] as const) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json().details).toEqual([{ field, message: `${field} must be nested at most 10 levels deep.` }]);
    }
    // Ten levels pass validation (auth is not running here).
    expect((await silence(nested(10))).statusCode).toBe(503);
    expect((await webhook(nested(10))).statusCode).toBe(503);
  });

  it("bounds a filter rule's value by size", async () => {
    const value = JSON.stringify("x".repeat(10_240 - 1));
    const answer = await app.inject({
      method: "POST",
      url: "/admin/v1/teams/t1/webhooks",
      headers: { ...auth, "content-type": "application/json" },
      payload: `{"name":"Big","filterRules":[{"field":"metadata.a","op":"==","value":${value}}]}`,
    });
    expect(answer.json().details).toEqual([
      { field: "filterRules[0].value", message: "filterRules[0].value must be at most 10240 bytes as JSON." },
    ]);
  });

  it("answers invalid JSON with invalid_json and other media types with 415", async () => {
    const broken = await app.inject({
      method: "POST",
      url: "/admin/v1/teams",
      headers: { ...auth, "content-type": "application/json" },
      payload: '{"name":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe("invalid_json");
    const text = await app.inject({
      method: "POST",
      url: "/admin/v1/teams",
      headers: { ...auth, "content-type": "text/plain" },
      payload: "name=Ops",
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe("unsupported_media_type");
  });

  it("answers 503 with Retry-After when auth is down, and never caches", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/admin/v1/teams",
      headers: auth,
      payload: { name: "Ops" },
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBe("5");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json().code).toBe("service_unavailable");
  });
});
