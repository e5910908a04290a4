// The monitors service answers grpc.health.v1 and, until the monitors issue
// lands, UNIMPLEMENTED for monitors.v1 (the gateway answers pings 404).
import { createGrpcServer } from "@pulsegate/grpc";
import { closeOnSignals } from "@pulsegate/lifecycle";
import { createLogger } from "@pulsegate/logger";
import { shutdownTelemetry } from "@pulsegate/telemetry";
import { loadMonitorsConfig } from "./config.ts";

const config = loadMonitorsConfig();
const log = createLogger("monitors", config.LOG_LEVEL);
const grpc = createGrpcServer([]);
const port = await grpc.listen(config.GRPC_LISTEN_ADDR);
log.info({ port }, "monitors listening");
closeOnSignals(log, [
  { name: "grpc", close: () => grpc.close() },
  { name: "telemetry", close: shutdownTelemetry },
]);
