import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../testing/build-test-app.ts";

const URL = "/api/alerts/trigger/some-webhook-token";
const SIGNATURE = "a".repeat(64);

describe("POST /api/alerts/trigger/:webhookUrl", () => {
  let app: FastifyInstance;
  beforeAll(() => {
    app = buildTestApp();
  });
  afterAll(() => app.close());

  it("answers a missing signature with the spec's 401 body and the request id", async () => {
    const response = await app.inject({
      method: "POST",
      url: URL,
      headers: { "content-type": "application/json" },
      payload: '{"title":"x"}',
    });
    expect(response.statusCode).toBe(401);
    const requestId = response.headers["x-request-id"];
    expect(typeof requestId).toBe("string");
    expect(response.json()).toEqual({ error: "Missing webhook signature", code: "missing_signature", requestId });
  });

  it("treats a blank signature as missing", async () => {
    const response = await app.inject({ method: "POST", url: URL, headers: { "x-webhook-signature": "  " } });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("missing_signature");
  });

  it("checks the signature before the Content-Type, even a malformed one", async () => {
    for (const contentType of ["text/plain", "not a media type", "application/x-www-form-urlencoded"]) {
      const response = await app.inject({
        method: "POST",
        url: URL,
        headers: { "content-type": contentType },
        payload: "title=x",
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe("missing_signature");
    }
  });

  it("checks the signature for unknown and very long webhook tokens alike", async () => {
    const response = await app.inject({ method: "POST", url: `/api/alerts/trigger/${"x".repeat(300)}` });
    expect(response.statusCode).toBe(401);
  });

  it("answers a body over 1 MiB with 413 in the standard body", async () => {
    const response = await app.inject({
      method: "POST",
      url: URL,
      headers: { "content-type": "application/json", "x-webhook-signature": SIGNATURE },
      payload: Buffer.alloc(1024 * 1024 + 1, 0x20),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      error: "The request body is larger than 1 MiB.",
      code: "payload_too_large",
      requestId: response.headers["x-request-id"],
    });
  });

  it("answers 413 for a chunked body over 1 MiB (no Content-Length)", async () => {
    const chunks = Array.from({ length: 17 }, () => Buffer.alloc(64 * 1024, 0x20));
    const response = await app.inject({
      method: "POST",
      url: URL,
      headers: {
        "content-type": "application/json",
        "transfer-encoding": "chunked",
        "x-webhook-signature": SIGNATURE,
      },
      payload: Readable.from(chunks),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe("payload_too_large");
  });

  it("accepts a body of exactly 1 MiB (and then needs the peers)", async () => {
    const response = await app.inject({
      method: "POST",
      url: URL,
      headers: { "content-type": "application/json", "x-webhook-signature": SIGNATURE },
      payload: Buffer.alloc(1024 * 1024, 0x20),
    });
    expect(response.statusCode).toBe(503);
  });

  it("answers 503 with Retry-After, never 500, when the alerts service is down", async () => {
    const response = await app.inject({
      method: "POST",
      url: URL,
      headers: { "content-type": "application/json", "x-webhook-signature": SIGNATURE },
      payload: '{"title":"x"}',
    });
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBe("5");
    expect(response.json()).toEqual({
      error: "A service behind the gateway is unavailable; retry shortly.",
      code: "service_unavailable",
      requestId: response.headers["x-request-id"],
    });
  });

  it("answers other methods and paths with the standard 404 body", async () => {
    const response = await app.inject({ method: "GET", url: URL });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: "No such endpoint.",
      code: "not_found",
      requestId: response.headers["x-request-id"],
    });
  });
});
