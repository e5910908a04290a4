import { closeOnSignals } from "@pulsegate/lifecycle";
import { createLogger } from "@pulsegate/logger";
import { shutdownTelemetry } from "@pulsegate/telemetry";
import { buildAlertsService } from "./app.ts";
import { loadAlertsConfig } from "./config.ts";

const config = loadAlertsConfig();
const log = createLogger("alerts", config.LOG_LEVEL);
const service = await buildAlertsService(config, log);
const port = await service.grpc.listen(config.GRPC_LISTEN_ADDR);
log.info({ port }, "alerts listening");
service.dispatcher.start();
service.retention.start();
closeOnSignals(log, [
  { name: "grpc", close: () => service.grpc.close() },
  { name: "retention", close: () => service.retention.stop() },
  { name: "notifications", close: () => service.stopNotifications() },
  { name: "database", close: () => service.orm.close() },
  { name: "telemetry", close: shutdownTelemetry },
]);
