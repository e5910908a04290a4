// What the gateway's HTTP server answers before routing has DESIGN §2's error
// body too, and its deadlines hold in the real process.
import { describe, expect, inject, it } from "vitest";
import { type RawResponse, rawExchange } from "../../services/gateway/src/testing/raw-http.ts";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);

function expectServerError(response: RawResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  const requestId = response.headers["x-request-id"];
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.parse(response.body)).toEqual({ error: expect.any(String), code, requestId });
  expect(response.closed).toBe(true);
}

describe("errors the gateway's HTTP server answers itself", () => {
  it("431 with the standard body for a huge header on the trigger route; the webhook still works", async () => {
    const { secret, webhookUrl } = await client.setup();
    const response = await rawExchange(stack.baseUrl, [
      `POST /api/alerts/trigger/${webhookUrl} HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n` +
        `X-Webhook-Signature: ${"a".repeat(64)}\r\nX-Padding: ${"p".repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`,
    ]);
    expectServerError(response, 431, "headers_too_large");
    expect((await client.trigger(webhookUrl, { title: "after the 431" }, { secret })).status).toBe(201);
  });

  it("431 with the standard body for a huge cursor on an admin list route", async () => {
    const { teamId } = await client.createTeam();
    const response = await rawExchange(stack.baseUrl, [
      `GET /admin/v1/teams/${teamId}/alerts?cursor=${"c".repeat(17 * 1024)} HTTP/1.1\r\nHost: gateway\r\n` +
        `Authorization: Bearer ${stack.adminToken}\r\n\r\n`,
    ]);
    expectServerError(response, 431, "headers_too_large");
  });

  it("400 with the standard body for a request line that is not HTTP", async () => {
    const response = await rawExchange(stack.baseUrl, ["GARBAGE\u0001 / what\r\n\r\n"]);
    expectServerError(response, 400, "malformed_request");
  });

  it("408 with the standard body when headers stall past the default 10 s headers deadline", async () => {
    const response = await rawExchange(stack.baseUrl, ["GET /healthz HTTP/1.1\r\nHost: gateway\r\n"], {
      waitMs: 15_000,
    });
    expectServerError(response, 408, "request_timeout");
    expect(response.elapsedMs).toBeGreaterThanOrEqual(9_900);
    expect(response.elapsedMs).toBeLessThan(12_000);
  }, 20_000);
});
