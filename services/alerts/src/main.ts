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
import { buildAlertsService } from "./app.ts";
import { loadAlertsConfig } from "./config.ts";
import { observeAlerts } from "./metrics/observe-alerts.ts";

const config = loadAlertsConfig();
const log = createLogger("alerts", config.LOG_LEVEL);
const metricsPort = await serveMetrics();
const callers = watchInboundConnections({ ignorePorts: metricsPort ? [metricsPort] : [] });
const grpc = createGrpcServer([], { maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS });
const listenAddress = await dualStackOrIpv4(config.GRPC_LISTEN_ADDR, log);
// Not migrating: listen at once, alive but not ready, while the migrate Job changes the schema.
// Migrating: listen once it serves (callers dialling fixed addresses would find nothing behind it).
const early = config.MIGRATE_ON_START ? undefined : await grpc.listen(listenAddress);
const service = await buildAlertsService(config, log);
grpc.serve(service.grpcServices);
const port = early ?? (await grpc.listen(listenAddress));
log.info({ port, metricsPort }, "alerts listening");
if (metricsPort) observeAlerts(service.pool, log);
service.dispatcher.start();
service.retention.start();
service.reminders.start();
service.purge.start();
closeOnSignals(
  log,
  [
    // The gateway and monitors finish their own in-flight work first, calling alerts.
    waitForCallers(callers, config.GRPC_DRAIN_MS, log),
    { name: "grpc", close: (ms) => grpc.close(Math.max(0, ms - 50)) },
    { name: "retention", close: () => service.retention.stop() },
    { name: "reminders", close: () => service.reminders.stop() },
    { name: "purge", close: () => service.purge.stop() },
    { name: "notifications", close: () => service.stopNotifications() },
    { name: "database", close: () => service.closeDatabase() },
    flushTelemetry(config.SHUTDOWN_TIMEOUT_MS),
  ],
  { budgetMs: config.SHUTDOWN_TIMEOUT_MS },
);
