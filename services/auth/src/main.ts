import { closeOnSignals, flushTelemetry, waitForCallers, watchInboundConnections } from "@pulsegate/lifecycle";
import { createLogger } from "@pulsegate/logger";
import { serveMetrics } from "@pulsegate/telemetry";
import { buildAuthService } from "./app.ts";
import { loadAuthConfig } from "./config.ts";

const config = loadAuthConfig();
const log = createLogger("auth", config.LOG_LEVEL);
const metricsPort = await serveMetrics();
const callers = watchInboundConnections({ ignorePorts: metricsPort ? [metricsPort] : [] });
const service = await buildAuthService(config, log);
// Signing first: once the main listener reports SERVING, Sign is reachable too.
const signingPort = await service.signingGrpc.listen(config.SIGNING_GRPC_LISTEN_ADDR);
const port = await service.grpc.listen(config.GRPC_LISTEN_ADDR);
log.info({ port, signingPort, metricsPort }, "auth listening");
closeOnSignals(
  log,
  [
    // The gateway and alerts finish their own in-flight work first, calling auth.
    waitForCallers(callers, config.GRPC_DRAIN_MS, log),
    {
      name: "grpc",
      close: (ms) =>
        Promise.all([service.grpc.close(Math.max(0, ms - 50)), service.signingGrpc.close(Math.max(0, ms - 50))]),
    },
    {
      name: "database",
      close: async () => {
        await service.changes.close();
        await service.directory.stop();
        await service.orm.close();
      },
    },
    flushTelemetry(config.SHUTDOWN_TIMEOUT_MS),
  ],
  { budgetMs: config.SHUTDOWN_TIMEOUT_MS },
);
