import { describe, expect, it } from "vitest";
import { isHealthMethod, isProbeRequest } from "./ignored-requests.ts";

describe("probes and scrapes", () => {
  it("are the health, readiness and metrics paths, with or without a query", () => {
    for (const url of ["/healthz", "/readyz", "/metrics", "/metrics?x=1", "/readyz#a"]) {
      expect(isProbeRequest({ url })).toBe(true);
    }
    for (const url of ["/api/ping/abc", "/admin/v1/teams", "/metricsx", "/", undefined]) {
      expect(isProbeRequest({ url })).toBe(false);
    }
  });

  it("include grpc.health.v1's Check and Watch, and the readiness probe's DescribeSpool, and no other method", () => {
    expect(isHealthMethod("Check")).toBe(true);
    expect(isHealthMethod("Watch")).toBe(true);
    expect(isHealthMethod("DescribeSpool")).toBe(true);
    expect(isHealthMethod("TriggerAlert")).toBe(false);
  });
});
