import { createGrpcServer, type GrpcServer } from "@pulsegate/grpc";
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

describe("ping against a monitors service without ResolveMonitor", () => {
  // A real gRPC server with no service bound answers every call UNIMPLEMENTED,
  // as the monitors service does until its issue is done.
  let server: GrpcServer;
  let app: FastifyInstance;
  beforeAll(async () => {
    server = createGrpcServer([]);
    const port = await server.listen("127.0.0.1:0");
    app = buildTestApp({ monitors: `127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await app.close();
    await server.close(0);
  });

  it.each(["GET", "POST"] as const)("%s answers the normal 404 monitor_not_found", async (method) => {
    const response = await app.inject({
      method,
      url: "/api/ping/some-ping-token",
      headers: { "x-webhook-signature": SIGNATURE },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: "No active monitor has that ping URL.",
      code: "monitor_not_found",
      requestId: response.headers["x-request-id"],
    });
  });
});
