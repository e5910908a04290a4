import { closeOnSignals } from "@pulsegate/lifecycle";
import { createLogger } from "@pulsegate/logger";
import { shutdownTelemetry } from "@pulsegate/telemetry";
import { buildMonitorsService } from "./app.ts";
import { loadMonitorsConfig } from "./config.ts";

const config = loadMonitorsConfig();
const log = createLogger("monitors", config.LOG_LEVEL);
const service = await buildMonitorsService(config, log);
const port = await service.grpc.listen(config.GRPC_LISTEN_ADDR);
service.startWorkers();
log.info({ port, sweepIntervalMs: config.SWEEP_INTERVAL_MS }, "monitors listening");
closeOnSignals(log, [
  { name: "grpc", close: () => service.grpc.close() },
  { name: "workers", close: () => service.stopWorkers() },
  { name: "clients and database", close: () => service.close() },
  { name: "telemetry", close: shutdownTelemetry },
]);
