import { closeOnSignals, grpcDrainMs, waitForCallers, watchInboundConnections } from "@pulsegate/lifecycle";
import { createLogger } from "@pulsegate/logger";
import { serveMetrics, shutdownTelemetry } from "@pulsegate/telemetry";
import { buildAlertsService } from "./app.ts";
import { loadAlertsConfig } from "./config.ts";
import { observeAlerts } from "./metrics/observe-alerts.ts";

const config = loadAlertsConfig();
const log = createLogger("alerts", config.LOG_LEVEL);
const drainMs = grpcDrainMs();
const metricsPort = await serveMetrics();
const callers = watchInboundConnections({ ignorePorts: metricsPort ? [metricsPort] : [] });
const service = await buildAlertsService(config, log);
const port = await service.grpc.listen(config.GRPC_LISTEN_ADDR);
log.info({ port, metricsPort }, "alerts listening");
if (metricsPort) observeAlerts(service.pool, log);
service.dispatcher.start();
service.retention.start();
service.reminders.start();
service.purge.start();
closeOnSignals(log, [
  // The gateway and monitors finish their own in-flight work first, calling alerts.
  waitForCallers(callers, drainMs, log),
  { name: "grpc", close: () => service.grpc.close() },
  { name: "retention", close: () => service.retention.stop() },
  { name: "reminders", close: () => service.reminders.stop() },
  { name: "purge", close: () => service.purge.stop() },
  { name: "notifications", close: () => service.stopNotifications() },
  { name: "database", close: () => service.closeDatabase() },
  { name: "telemetry", close: shutdownTelemetry },
]);
