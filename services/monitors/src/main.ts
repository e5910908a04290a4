import { closeOnSignals, flushTelemetry, waitForCallers, watchInboundConnections } from "@pulsegate/lifecycle";
import { createLogger } from "@pulsegate/logger";
import { serveMetrics } from "@pulsegate/telemetry";
import { buildMonitorsService } from "./app.ts";
import { loadMonitorsConfig } from "./config.ts";

const config = loadMonitorsConfig();
const log = createLogger("monitors", config.LOG_LEVEL);
const metricsPort = await serveMetrics();
const callers = watchInboundConnections({ ignorePorts: metricsPort ? [metricsPort] : [] });
const service = await buildMonitorsService(config, log);
const port = await service.grpc.listen(config.GRPC_LISTEN_ADDR);
service.startWorkers();
log.info({ port, metricsPort, sweepIntervalMs: config.SWEEP_INTERVAL_MS }, "monitors listening");
closeOnSignals(
  log,
  [
    // The gateway finishes its in-flight pings first, calling monitors.
    waitForCallers(callers, config.GRPC_DRAIN_MS, log),
    { name: "grpc", close: (ms) => service.grpc.close(Math.max(0, ms - 50)) },
    { name: "workers", close: () => service.stopWorkers() },
    { name: "clients and database", close: () => service.close() },
    flushTelemetry(config.SHUTDOWN_TIMEOUT_MS),
  ],
  { budgetMs: config.SHUTDOWN_TIMEOUT_MS },
);
