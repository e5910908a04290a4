import { createGrpcServer } from "@pulsegate/grpc";
import {
  closeOnSignals,
  dualStackOrIpv4,
  flushTelemetry,
  waitForCallers,
  watchInboundConnections,
} from "@pulsegate/runtime/lifecycle";
import { createLogger } from "@pulsegate/runtime/logger";
import { serveMetrics } from "@pulsegate/telemetry";
import { buildMonitorsService } from "./app.ts";
import { loadMonitorsConfig } from "./config.ts";

const config = loadMonitorsConfig();
const log = createLogger("monitors", config.LOG_LEVEL);
const metricsPort = await serveMetrics();
const callers = watchInboundConnections({ ignorePorts: metricsPort ? [metricsPort] : [] });
const grpc = createGrpcServer([], { maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS });
const listenAddress = await dualStackOrIpv4(config.GRPC_LISTEN_ADDR, log);
// Not migrating: listen at once, alive but not ready, while the migrate Job changes the schema.
// Migrating: listen once it serves (callers dialling fixed addresses would find nothing behind it).
const early = config.MIGRATE_ON_START ? undefined : await grpc.listen(listenAddress);
const service = await buildMonitorsService(config, log);
grpc.serve(service.grpcServices);
const port = early ?? (await grpc.listen(listenAddress));
service.startWorkers();
log.info({ port, metricsPort, sweepIntervalMs: config.SWEEP_INTERVAL_MS }, "monitors listening");
closeOnSignals(
  log,
  [
    // The gateway finishes its in-flight pings first, calling monitors.
    waitForCallers(callers, config.GRPC_DRAIN_MS, log),
    { name: "grpc", close: (ms) => grpc.close(Math.max(0, ms - 50)) },
    { name: "workers", close: () => service.stopWorkers() },
    { name: "clients and database", close: () => service.close() },
    flushTelemetry(config.SHUTDOWN_TIMEOUT_MS),
  ],
  { budgetMs: config.SHUTDOWN_TIMEOUT_MS },
);
