// Services listen on every interface the IPv6 way by default (gRPC `[::]:port`, the image's and
// the manifests' HOST=`::`, /metrics on Node's default), which Node and grpc-js make dual-stack:
// reachable over IPv6 (::1) and IPv4 (127.0.0.1) alike, so IPv6-only clusters work too.
import { randomBytes } from "node:crypto";
import { LIVENESS_SERVICE } from "@pulsegate/grpc";
import { afterAll, describe, expect, it } from "vitest";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { createHealthChecker, type HealthChecker } from "../../services/gateway/src/peers/check-grpc-health.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { freePort } from "../support/free-port.ts";
import { ServiceProcess } from "../support/service-process.ts";

const databaseName = `pulsegate_dual_stack_${process.pid}`;
const started: ServiceProcess[] = [];
const checkers: HealthChecker[] = [];

afterAll(async () => {
  for (const checker of checkers) checker.close();
  await Promise.all(started.map((service) => service.kill()));
  await dropDatabase(databaseName);
});

const ok = (url: string) =>
  fetch(url).then(
    (response) => response.ok,
    () => false,
  );

describe("dual-stack listeners", () => {
  it("a gRPC service on its default host answers over ::1 and 127.0.0.1, its /metrics too", async () => {
    await recreateDatabase(databaseName);
    // The port is the test's own (5005x may be taken on this machine); the host is the default's.
    const defaultHost = loadAlertsConfig({}).GRPC_LISTEN_ADDR.replace(/:\d+$/, "");
    expect(defaultHost).toBe("[::]");
    const [port, metricsPort] = [await freePort("::"), await freePort("::")];
    const alerts = ServiceProcess.start("alerts", {
      NODE_ENV: "test",
      DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`,
      DB_POOL_MAX: "2",
      SECRET_KEK: randomBytes(32).toString("base64"),
      GRPC_LISTEN_ADDR: `${defaultHost}:${port}`,
      OTEL_SDK_DISABLED: "false",
      METRICS_PORT: String(metricsPort),
    });
    started.push(alerts);
    await alerts.waitFor(/"alerts listening"/);
    for (const address of [`[::1]:${port}`, `127.0.0.1:${port}`]) {
      const checker = createHealthChecker(address, 2_000);
      checkers.push(checker);
      expect(await checker.check("", 2_000), `ready at ${address}`).toBe(true);
      expect(await checker.check(LIVENESS_SERVICE, 2_000), `alive at ${address}`).toBe(true);
    }
    expect(await ok(`http://[::1]:${metricsPort}/metrics`)).toBe(true);
    expect(await ok(`http://127.0.0.1:${metricsPort}/metrics`)).toBe(true);
  });

  it("the gateway with HOST=:: (the image's and the manifests') answers over ::1 and 127.0.0.1", async () => {
    const [port, metricsPort] = [await freePort("::"), await freePort("::")];
    const gateway = ServiceProcess.start("gateway", {
      NODE_ENV: "test",
      HOST: "::",
      PORT: String(port),
      REDIS_URL: "",
      OTEL_SDK_DISABLED: "false",
      METRICS_PORT: String(metricsPort),
    });
    started.push(gateway);
    await gateway.waitFor(/Server listening|metrics served/);
    for (const host of ["[::1]", "127.0.0.1"]) {
      expect(await ok(`http://${host}:${port}/healthz`), `/healthz over ${host}`).toBe(true);
      expect(await ok(`http://${host}:${metricsPort}/metrics`), `/metrics over ${host}`).toBe(true);
    }
  });
});
