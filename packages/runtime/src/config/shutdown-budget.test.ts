import { describe, expect, it } from "vitest";
import { env } from "./env-parsers.ts";
import { loadConfig } from "./load-config.ts";
import { checkDrainFitsShutdown } from "./shutdown-budget.ts";

const load = (source: NodeJS.ProcessEnv) => {
  const config = loadConfig(
    { SHUTDOWN_TIMEOUT_MS: env.shutdownTimeoutMs(20_000), GRPC_DRAIN_MS: env.grpcDrainMs() },
    source,
  );
  checkDrainFitsShutdown(config);
  return config;
};

describe("SHUTDOWN_TIMEOUT_MS and GRPC_DRAIN_MS", () => {
  it("default to 20 s (a 30 s grace period less a 5 s preStop delay and 5 s to spare) and 5 s", () => {
    expect(load({})).toEqual({ SHUTDOWN_TIMEOUT_MS: 20_000, GRPC_DRAIN_MS: 5_000 });
    expect(load({ SHUTDOWN_TIMEOUT_MS: "2000", GRPC_DRAIN_MS: "0" })).toEqual({
      SHUTDOWN_TIMEOUT_MS: 2_000,
      GRPC_DRAIN_MS: 0,
    });
  });

  it("name the variable when a value is not a duration in range", () => {
    expect(() => load({ SHUTDOWN_TIMEOUT_MS: "soon" })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
    expect(() => load({ SHUTDOWN_TIMEOUT_MS: "500" })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
    expect(() => load({ GRPC_DRAIN_MS: "soon" })).toThrow(/GRPC_DRAIN_MS/);
  });

  it("refuse a wait for callers that would leave the other steps nothing", () => {
    expect(() => load({ SHUTDOWN_TIMEOUT_MS: "5000", GRPC_DRAIN_MS: "5000" })).toThrow(
      /GRPC_DRAIN_MS: must be shorter than SHUTDOWN_TIMEOUT_MS \(5000 ms\)/,
    );
  });
});
