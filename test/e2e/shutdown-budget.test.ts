// A service's shutdown steps share one budget (SHUTDOWN_TIMEOUT_MS), so the process exits before
// the platform's SIGKILL whatever hangs. Here alerts shuts down while PostgreSQL has stalled (a
// proxy that passes nothing and answers no close) and its OTLP collector accepts connections but
// never answers: its dispatcher, reminders and pools cannot close, its spans cannot be flushed.
// Each step alone used to get 10 s (about 70 s in all, against a 30 s grace period).
import { randomBytes } from "node:crypto";
import { createServer, type Socket } from "node:net";
import { callUnary, connectClient } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import { afterAll, describe, expect, it } from "vitest";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { freePort } from "../support/free-port.ts";
import { ServiceProcess } from "../support/service-process.ts";
import { StallingProxy } from "../support/stalling-proxy.ts";
import { hostPortOf } from "../support/tcp-proxy.ts";

const databaseName = `pulsegate_shutdown_budget_${process.pid}`;
const BUDGET_MS = 6_000;
const held = new Set<Socket>();
/** An OTLP endpoint that accepts every connection and never answers. */
const collector = createServer((socket) => {
  held.add(socket);
  socket.on("error", () => undefined);
});
let proxy: StallingProxy | undefined;
let service: ServiceProcess | undefined;

afterAll(async () => {
  await service?.kill();
  await proxy?.close();
  for (const socket of held) socket.destroy();
  collector.close();
  await dropDatabase(databaseName);
});

describe("shutdown budget", () => {
  it("exits within SHUTDOWN_TIMEOUT_MS of SIGTERM while PostgreSQL and the collector hang", async () => {
    await recreateDatabase(databaseName);
    proxy = await StallingProxy.start(hostPortOf(TEST_DATABASE_SERVER, 5432));
    await new Promise<void>((done) => collector.listen(0, "127.0.0.1", done));
    const collectorPort = (collector.address() as { port: number }).port;
    const grpcAddress = `127.0.0.1:${await freePort()}`;
    const database = new URL(`${TEST_DATABASE_SERVER}/${databaseName}`);
    database.host = `127.0.0.1:${proxy.port}`;
    service = ServiceProcess.start("alerts", {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      DATABASE_URL: database.toString(),
      DB_POOL_MAX: "4",
      GRPC_LISTEN_ADDR: grpcAddress,
      SECRET_KEK: randomBytes(32).toString("base64"),
      NOTIFY_POLL_MS: "100",
      REMINDER_INTERVAL_MS: "100",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
      OTEL_TRACES_SAMPLER: "always_on",
      SHUTDOWN_TIMEOUT_MS: String(BUDGET_MS),
      GRPC_DRAIN_MS: "500",
    });
    await service.waitFor(/"alerts listening"/);

    // A call that records spans (its server span and its queries) for the last flush to send.
    const client = connectClient(alerts.AlertsServiceClient, grpcAddress, { deadlineMs: 5_000 });
    await callUnary(client, "listWebhooks", { teamId: "team_shutdown" });
    client.close();

    proxy.stall();
    // Three of the 100 ms polls: the dispatcher's and the reminders' next queries are now stuck behind
    // the stalled proxy, so their steps cannot finish on their own (otherwise nothing may be in flight).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalled = Date.now();
    service.child.kill("SIGTERM");
    const exit = await service.exited;
    const tookMs = exit.at - signalled;

    expect(exit.code).toBe(0);
    expect(tookMs).toBeLessThan(BUDGET_MS + 1_000);
    // The steps were slow for real: some overran their share and were abandoned, and the
    // telemetry flush still had its own (short) turn at the end.
    expect(service.output).toMatch(/"closer":"(notifications|reminders|database)".*timed out after/);
    expect(service.output).toMatch(/"closer":"telemetry"/);
    if (process.env.SHOW_SHUTDOWN) process.stdout.write(`${tookMs} ms\n${service.output}`);
  });
});
