import { createGrpcServer, type GrpcServer } from "@pulsegate/grpc";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../services/gateway/src/testing/build-test-app.ts";

describe("health endpoints with every peer down", () => {
  let app: FastifyInstance;
  beforeAll(() => {
    app = buildTestApp();
  });
  afterAll(() => app.close());

  it("/healthz answers while the process is alive", async () => {
    const response = await app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("/readyz stays 200 (the gateway itself serves) and names what is down; Redis and the spool are reported", async () => {
    const response = await app.inject({ method: "GET", url: "/readyz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "degraded",
      checks: { auth: "down", alerts: "down", monitors: "down", redis: "up" },
      spool: null,
    });
  });
});

describe("/readyz with a peer that is up but not serving the named service", () => {
  // createGrpcServer([]) reports only the "" service: the named one is unknown (NOT_FOUND).
  let server: GrpcServer;
  let app: FastifyInstance;
  beforeAll(async () => {
    server = createGrpcServer([]);
    const port = await server.listen("127.0.0.1:0");
    app = buildTestApp({ auth: `127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await app.close();
    await server.close(0);
  });

  it("reports it down", async () => {
    const response = await app.inject({ method: "GET", url: "/readyz" });
    expect(response.json().checks.auth).toBe("down");
  });
});
