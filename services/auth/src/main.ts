import { closeOnSignals } from "@pulsegate/lifecycle";
import { createLogger } from "@pulsegate/logger";
import { shutdownTelemetry } from "@pulsegate/telemetry";
import { buildAuthService } from "./app.ts";
import { loadAuthConfig } from "./config.ts";

const config = loadAuthConfig();
const log = createLogger("auth", config.LOG_LEVEL);
const service = await buildAuthService(config, log);
const port = await service.grpc.listen(config.GRPC_LISTEN_ADDR);
log.info({ port }, "auth listening");
closeOnSignals(log, [
  { name: "grpc", close: () => service.grpc.close() },
  { name: "database", close: () => service.orm.close() },
  { name: "telemetry", close: shutdownTelemetry },
]);
