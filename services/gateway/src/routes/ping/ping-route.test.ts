import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../testing/build-test-app.ts";

const SIGNATURE = "b".repeat(64);

describe("POST|GET /api/ping/:pingUrl", () => {
  let app: FastifyInstance;
  beforeAll(() => {
    app = buildTestApp();
  });
  afterAll(() => app.close());

  it.each(["GET", "POST"] as const)("%s without a signature answers the spec's 401", async (method) => {
    const response = await app.inject({ method, url: "/api/ping/some-ping-token" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      error: "Missing webhook signature",
      code: "missing_signature",
      requestId: response.headers["x-request-id"],
    });
  });

  // Steps 2–7 against real services: test/e2e/ping-*.test.ts.
  it("answers 503 when the monitors service is down", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/api/ping/some-ping-token",
      headers: { "x-webhook-signature": SIGNATURE },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe("service_unavailable");
  });
});
