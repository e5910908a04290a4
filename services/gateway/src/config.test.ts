import { describe, expect, it } from "vitest";
import { loadGatewayConfig } from "./config.ts";

describe("loadGatewayConfig", () => {
  it("has laptop defaults and generates an admin token outside production", () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: "127.0.0.1",
      AUTH_GRPC_ADDR: "127.0.0.1:50051",
      ALERTS_GRPC_ADDR: "127.0.0.1:50052",
      MONITORS_GRPC_ADDR: "127.0.0.1:50053",
      REDIS_URL: "redis://127.0.0.1:6379",
      GRPC_TIMEOUT_MS: 2000,
      WEBHOOK_CACHE_MS: 5000,
      HEADERS_TIMEOUT_MS: 10_000,
      REQUEST_TIMEOUT_MS: 30_000,
      SHUTDOWN_TIMEOUT_MS: 35_000,
      AUTH_FAILURE_LIMIT: 20,
      AUTH_FAILURE_BLOCK_SECONDS: 60,
      REDIS_KEY_PREFIX: "pulsegate",
      NODE_ENV: "development",
      adminTokenGenerated: true,
    });
    expect(config.adminToken.length).toBeGreaterThanOrEqual(32);
    expect(loadGatewayConfig({}).adminToken).not.toBe(config.adminToken);
  });

  it("requires ADMIN_TOKEN in production", () => {
    expect(() => loadGatewayConfig({ NODE_ENV: "production" })).toThrow(/ADMIN_TOKEN/);
    const config = loadGatewayConfig({ NODE_ENV: "production", ADMIN_TOKEN: "t0ken" });
    expect(config).toMatchObject({ adminToken: "t0ken", adminTokenGenerated: false });
  });

  it("needs a shutdown budget longer than a request's deadline", () => {
    expect(() => loadGatewayConfig({ SHUTDOWN_TIMEOUT_MS: "30000" })).toThrow(
      /SHUTDOWN_TIMEOUT_MS: must be longer than REQUEST_TIMEOUT_MS/,
    );
    expect(
      loadGatewayConfig({ SHUTDOWN_TIMEOUT_MS: "6000", REQUEST_TIMEOUT_MS: "5000", HEADERS_TIMEOUT_MS: "5000" })
        .SHUTDOWN_TIMEOUT_MS,
    ).toBe(6_000);
    expect(() => loadGatewayConfig({ SHUTDOWN_TIMEOUT_MS: "a while" })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });

  it("names the failing variable", () => {
    expect(() => loadGatewayConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadGatewayConfig({ AUTH_GRPC_ADDR: "localhost" })).toThrow(/AUTH_GRPC_ADDR/);
    expect(() => loadGatewayConfig({ REDIS_URL: "not a url" })).toThrow(/REDIS_URL/);
    expect(() => loadGatewayConfig({ AUTH_FAILURE_LIMIT: "0" })).toThrow(/AUTH_FAILURE_LIMIT/);
    expect(() => loadGatewayConfig({ AUTH_FAILURE_BLOCK_SECONDS: "a minute" })).toThrow(/AUTH_FAILURE_BLOCK_SECONDS/);
  });

  it("takes the headers and request deadlines, the headers one no longer than the other", () => {
    expect(loadGatewayConfig({ HEADERS_TIMEOUT_MS: "500", REQUEST_TIMEOUT_MS: "1500" })).toMatchObject({
      HEADERS_TIMEOUT_MS: 500,
      REQUEST_TIMEOUT_MS: 1500,
    });
    expect(() => loadGatewayConfig({ HEADERS_TIMEOUT_MS: "40000" })).toThrow(/HEADERS_TIMEOUT_MS/);
    expect(() => loadGatewayConfig({ REQUEST_TIMEOUT_MS: "0" })).toThrow(/REQUEST_TIMEOUT_MS/);
  });

  it("takes PUBLIC_BASE_URL without a trailing slash, and leaves it unset by default", () => {
    expect(loadGatewayConfig({}).publicBaseUrl).toBeUndefined();
    expect(loadGatewayConfig({ PUBLIC_BASE_URL: "https://pulsegate.example.com/" }).publicBaseUrl).toBe(
      "https://pulsegate.example.com",
    );
  });

  it("reads TRUST_PROXY as a flag or proxy addresses", () => {
    expect(loadGatewayConfig({}).trustProxy).toBeUndefined();
    expect(loadGatewayConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadGatewayConfig({ TRUST_PROXY: "10.0.0.0/8,127.0.0.1" }).trustProxy).toBe("10.0.0.0/8,127.0.0.1");
  });
});
