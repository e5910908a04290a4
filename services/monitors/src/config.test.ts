import { describe, expect, it } from "vitest";
import { loadMonitorsConfig } from "./config.ts";

describe("loadMonitorsConfig: deployment settings", () => {
  it("defaults: dual-stack listener, migrations at start, a 20 s shutdown, the process's pool budget", () => {
    expect(loadMonitorsConfig({})).toMatchObject({
      GRPC_LISTEN_ADDR: "[::]:50053",
      MIGRATE_ON_START: true,
      SHUTDOWN_TIMEOUT_MS: 20_000,
      GRPC_DRAIN_MS: 5_000,
      DB_POOL_MAX: 20,
    });
    expect(loadMonitorsConfig({ MIGRATE_ON_START: "false" }).MIGRATE_ON_START).toBe(false);
  });

  it("names the variable a bad value is in", () => {
    expect(() => loadMonitorsConfig({ MIGRATE_ON_START: "no" })).toThrow(/MIGRATE_ON_START/);
    expect(() => loadMonitorsConfig({ GRPC_LISTEN_ADDR: "::" })).toThrow(
      /GRPC_LISTEN_ADDR: must be host:port or \[IPv6\]:port/,
    );
    expect(() => loadMonitorsConfig({ DB_POOL_MAX: "1" })).toThrow(/DB_POOL_MAX/);
    expect(() => loadMonitorsConfig({ SHUTDOWN_TIMEOUT_MS: "4000", GRPC_DRAIN_MS: "5000" })).toThrow(/GRPC_DRAIN_MS/);
  });
});

describe("REDIS_DURABILITY", () => {
  it("probes by default, takes a stated durability, and refuses anything else", () => {
    expect(loadMonitorsConfig({}).REDIS_DURABILITY).toBe("probe");
    for (const stated of ["durable", "aof_not_fsynced", "not_durable"]) {
      expect(loadMonitorsConfig({ REDIS_DURABILITY: stated }).REDIS_DURABILITY).toBe(stated);
    }
    expect(() => loadMonitorsConfig({ REDIS_DURABILITY: "aof" })).toThrow(/REDIS_DURABILITY/);
  });
});
