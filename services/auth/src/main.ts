import { closeOnSignals, grpcDrainMs, waitForCallers, watchInboundConnections } from "@pulsegate/lifecycle";
import { createLogger } from "@pulsegate/logger";
import { serveMetrics, shutdownTelemetry } from "@pulsegate/telemetry";
import { buildAuthService } from "./app.ts";
import { loadAuthConfig } from "./config.ts";

const config = loadAuthConfig();
const log = createLogger("auth", config.LOG_LEVEL);
const drainMs = grpcDrainMs();
const metricsPort = await serveMetrics();
const callers = watchInboundConnections({ ignorePorts: metricsPort ? [metricsPort] : [] });
const service = await buildAuthService(config, log);
// Signing first: once the main listener reports SERVING, Sign is reachable too.
const signingPort = await service.signingGrpc.listen(config.SIGNING_GRPC_LISTEN_ADDR);
const port = await service.grpc.listen(config.GRPC_LISTEN_ADDR);
log.info({ port, signingPort, metricsPort }, "auth listening");
closeOnSignals(log, [
  // The gateway and alerts finish their own in-flight work first, calling auth.
  waitForCallers(callers, drainMs, log),
  { name: "grpc", close: () => Promise.all([service.grpc.close(), service.signingGrpc.close()]) },
  {
    name: "database",
    close: async () => {
      await service.changes.close();
      await service.directory.stop();
      await service.orm.close();
    },
  },
  { name: "telemetry", close: shutdownTelemetry },
]);
