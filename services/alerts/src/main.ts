import { closeOnSignals, flushTelemetry, waitForCallers, watchInboundConnections } from "@pulsegate/lifecycle";
import { createLogger } from "@pulsegate/logger";
import { serveMetrics } from "@pulsegate/telemetry";
import { buildAlertsService } from "./app.ts";
import { loadAlertsConfig } from "./config.ts";
import { observeAlerts } from "./metrics/observe-alerts.ts";

const config = loadAlertsConfig();
const log = createLogger("alerts", config.LOG_LEVEL);
const metricsPort = await serveMetrics();
const callers = watchInboundConnections({ ignorePorts: metricsPort ? [metricsPort] : [] });
const service = await buildAlertsService(config, log);
const port = await service.grpc.listen(config.GRPC_LISTEN_ADDR);
log.info({ port, metricsPort }, "alerts listening");
if (metricsPort) observeAlerts(service.pool, log);
service.dispatcher.start();
service.retention.start();
service.reminders.start();
closeOnSignals(
  log,
  [
    // The gateway and monitors finish their own in-flight work first, calling alerts.
    waitForCallers(callers, config.GRPC_DRAIN_MS, log),
    { name: "grpc", close: (ms) => service.grpc.close(Math.max(0, ms - 50)) },
    { name: "retention", close: () => service.retention.stop() },
    { name: "reminders", close: () => service.reminders.stop() },
    { name: "notifications", close: () => service.stopNotifications() },
    { name: "database", close: () => service.closeDatabase() },
    flushTelemetry(config.SHUTDOWN_TIMEOUT_MS),
  ],
  { budgetMs: config.SHUTDOWN_TIMEOUT_MS },
);
