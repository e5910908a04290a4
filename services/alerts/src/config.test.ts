import { describe, expect, it } from "vitest";
import { loadAlertsConfig } from "./config.ts";

describe("loadAlertsConfig: deployment settings", () => {
  it("defaults: dual-stack listener, migrations at start, a 20 s shutdown, the process's pool budget", () => {
    expect(loadAlertsConfig({})).toMatchObject({
      GRPC_LISTEN_ADDR: "[::]:50052",
      MIGRATE_ON_START: true,
      SHUTDOWN_TIMEOUT_MS: 20_000,
      GRPC_DRAIN_MS: 5_000,
      DB_POOL_MAX: 40,
    });
    expect(loadAlertsConfig({ MIGRATE_ON_START: "false" }).MIGRATE_ON_START).toBe(false);
  });

  it("names the variable a bad value is in", () => {
    expect(() => loadAlertsConfig({ MIGRATE_ON_START: "no" })).toThrow(/MIGRATE_ON_START/);
    expect(() => loadAlertsConfig({ GRPC_LISTEN_ADDR: "::" })).toThrow(
      /GRPC_LISTEN_ADDR: must be host:port or \[IPv6\]:port/,
    );
    expect(() => loadAlertsConfig({ DB_POOL_MAX: "1" })).toThrow(/DB_POOL_MAX/);
    expect(() => loadAlertsConfig({ SHUTDOWN_TIMEOUT_MS: "4000", GRPC_DRAIN_MS: "5000" })).toThrow(/GRPC_DRAIN_MS/);
  });
});
