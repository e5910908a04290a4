import { closeOnSignals, grpcDrainMs, waitForCallers, watchInboundConnections } from "@pulsegate/lifecycle";
import { createLogger } from "@pulsegate/logger";
import { serveMetrics, shutdownTelemetry } from "@pulsegate/telemetry";
import { buildMonitorsService } from "./app.ts";
import { loadMonitorsConfig } from "./config.ts";

const config = loadMonitorsConfig();
const log = createLogger("monitors", config.LOG_LEVEL);
const drainMs = grpcDrainMs();
const metricsPort = await serveMetrics();
const callers = watchInboundConnections({ ignorePorts: metricsPort ? [metricsPort] : [] });
const service = await buildMonitorsService(config, log);
const port = await service.grpc.listen(config.GRPC_LISTEN_ADDR);
service.startWorkers();
log.info({ port, metricsPort, sweepIntervalMs: config.SWEEP_INTERVAL_MS }, "monitors listening");
closeOnSignals(log, [
  // The gateway finishes its in-flight pings first, calling monitors.
  waitForCallers(callers, drainMs, log),
  { name: "grpc", close: () => service.grpc.close() },
  { name: "workers", close: () => service.stopWorkers() },
  { name: "clients and database", close: () => service.close() },
  { name: "telemetry", close: shutdownTelemetry },
]);
