import { createLogger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../services/gateway/src/app.ts";
import { connectPeers } from "../../services/gateway/src/peers/connect-peers.ts";
import { DEAD_ADDRESS, REDIS_URL, TEST_ADMIN_TOKEN } from "../../services/gateway/src/testing/build-test-app.ts";
import { type RawResponse, rawExchange } from "../../services/gateway/src/testing/raw-http.ts";

// Short deadlines so that the timeouts take about a second, not the production 10 s and 30 s.
const HEADERS_TIMEOUT_MS = 500;
const REQUEST_TIMEOUT_MS = 1_500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TRIGGER = "/api/alerts/trigger/some-webhook-token";

function expectServerError(response: RawResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
  const requestId = response.headers["x-request-id"];
  expect(requestId).toMatch(UUID);
  expect(JSON.parse(response.body)).toEqual({ error: expect.any(String), code, requestId });
  expect(response.closed).toBe(true);
}

describe("errors the HTTP server answers itself", () => {
  let app: FastifyInstance;
  let baseUrl: string;
  const routedIds: string[] = [];

  beforeAll(async () => {
    const log = createLogger("gateway-test", "silent");
    const peers = connectPeers({ auth: DEAD_ADDRESS, alerts: DEAD_ADDRESS, monitors: DEAD_ADDRESS }, 1_000);
    const redis = connectRedis(REDIS_URL, log);
    app = buildApp({
      log,
      peers,
      redis,
      adminToken: TEST_ADMIN_TOKEN,
      webhookCacheMs: 5_000,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    app.addHook("onRequest", async (request) => {
      routedIds.push(request.id);
    });
    app.addHook("onClose", async () => {
      peers.close();
      redis.disconnect();
    });
    baseUrl = await app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => app.close());

  it("431 for a 20 KB header", async () => {
    const response = await rawExchange(baseUrl, [
      `GET /healthz HTTP/1.1\r\nHost: gateway\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`,
    ]);
    expectServerError(response, 431, "headers_too_large");
  });

  it("431 for a cursor query string over 16 KiB on an admin list route", async () => {
    const cursor = "c".repeat(17 * 1024);
    const response = await rawExchange(baseUrl, [
      `GET /admin/v1/teams/team_1/alerts?cursor=${cursor} HTTP/1.1\r\nHost: gateway\r\n` +
        `Authorization: Bearer ${TEST_ADMIN_TOKEN}\r\n\r\n`,
    ]);
    expectServerError(response, 431, "headers_too_large");
  });

  it.each([
    ["a request line that is not HTTP", "this is not http at all\r\n\r\n"],
    ["a header name with a space", "GET /healthz HTTP/1.1\r\nHost: gateway\r\nBad Name: x\r\n\r\n"],
    ["a control character in a header value", "GET /healthz HTTP/1.1\r\nHost: gateway\r\nX-A: a\u0001b\r\n\r\n"],
    [
      "both Content-Length and Transfer-Encoding",
      `POST ${TRIGGER} HTTP/1.1\r\nHost: gateway\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ],
  ])("400 malformed_request for %s", async (_name, request) => {
    const response = await rawExchange(baseUrl, [request]);
    expectServerError(response, 400, "malformed_request");
  });

  it("413 for chunk extensions over 16 KiB", async () => {
    const response = await rawExchange(baseUrl, [
      `POST ${TRIGGER} HTTP/1.1\r\nHost: gateway\r\nTransfer-Encoding: chunked\r\n\r\n`,
      `1;ext=${"e".repeat(20_000)}\r\na\r\n0\r\n\r\n`,
    ]);
    expectServerError(response, 413, "chunk_extensions_too_large");
  });

  it("408 when the headers never finish, at the headers deadline", async () => {
    const response = await rawExchange(baseUrl, ["GET /healthz HTTP/1.1\r\nHost: gateway\r\n"]);
    expectServerError(response, 408, "request_timeout");
    expect(response.elapsedMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(response.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS);
  });

  it("408, not an answer, for a body trickled past the request deadline; the routed request's id", async () => {
    const body = '{"title":"trickled"}'.padEnd(40, " ");
    const response = await rawExchange(
      baseUrl,
      [
        `POST ${TRIGGER} HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n` +
          `X-Webhook-Signature: ${"a".repeat(64)}\r\nContent-Length: ${body.length}\r\n\r\n`,
        ...body,
      ],
      { gapMs: 100 },
    );
    expectServerError(response, 408, "request_timeout");
    expect(response.elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(response.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1_500);
    expect(routedIds).toContain(JSON.parse(response.body).requestId);
  });

  it("answers a body slower than the headers deadline but within the request deadline", async () => {
    const body = "12345";
    const response = await rawExchange(
      baseUrl,
      [
        `POST ${TRIGGER} HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`,
        ...body,
      ],
      { gapMs: 150 },
    );
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ code: "missing_signature" });
    expect(response.elapsedMs).toBeGreaterThan(HEADERS_TIMEOUT_MS);
  });
});
