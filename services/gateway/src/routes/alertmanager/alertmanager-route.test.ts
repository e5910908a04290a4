import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../testing/build-test-app.ts";

const URL = "/api/alerts/alertmanager/some-webhook-token";

describe("POST /api/alerts/alertmanager/:webhookUrl, before any service is asked", () => {
  let app: FastifyInstance;
  beforeAll(() => {
    app = buildTestApp();
  });
  afterAll(() => app.close());

  it("answers a missing bearer token 401 missing_bearer_token, with a sentence and a challenge", async () => {
    for (const authorization of [undefined, "", "Bearer", "Bearer   ", "Basic dXNlcjpwYXNz", "pgam_abc"]) {
      const response = await app.inject({
        method: "POST",
        url: URL,
        headers: { "content-type": "application/json", ...(authorization === undefined ? {} : { authorization }) },
        payload: '{"version":"4","alerts":[]}',
      });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.json(), String(authorization)).toEqual({
        error: "Missing bearer token: send Authorization: Bearer <the webhook's bearerToken>.",
        code: "missing_bearer_token",
        requestId: response.headers["x-request-id"],
      });
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="webhook"');
    }
  });

  it("checks the token before the Content-Type and the body", async () => {
    const response = await app.inject({
      method: "POST",
      url: URL,
      headers: { "content-type": "text/plain" },
      payload: "not json",
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("missing_bearer_token");
  });

  it("answers a webhook token that cannot be one 404 without asking alerts (which is unreachable here)", async () => {
    const response = await app.inject({
      method: "POST",
      url: `/api/alerts/alertmanager/${"x".repeat(300)}`,
      headers: { authorization: "Bearer pgam_token" },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("webhook_not_found");
  });
});
