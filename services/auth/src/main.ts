import { createGrpcServer } from "@pulsegate/grpc";
import {
  closeOnSignals,
  dualStackOrIpv4,
  flushTelemetry,
  waitForCallers,
  watchInboundConnections,
} from "@pulsegate/runtime/lifecycle";
import { createLogger } from "@pulsegate/runtime/logger";
import { serveMetrics } from "@pulsegate/telemetry";
import { buildAuthService } from "./app.ts";
import { loadAuthConfig } from "./config.ts";

const config = loadAuthConfig();
const log = createLogger("auth", config.LOG_LEVEL);
const metricsPort = await serveMetrics();
const callers = watchInboundConnections({ ignorePorts: metricsPort ? [metricsPort] : [] });
const serverOptions = { maxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS };
const grpc = createGrpcServer([], serverOptions);
const signingGrpc = createGrpcServer([], serverOptions);
const listenAddress = await dualStackOrIpv4(config.GRPC_LISTEN_ADDR, log);
const signingListenAddress = await dualStackOrIpv4(config.SIGNING_GRPC_LISTEN_ADDR, log);
// Not migrating: listen at once, alive but not ready, while the migrate Job changes the schema.
// Migrating: listen once it serves (callers dialling fixed addresses would find nothing behind it).
// Signing first either way: once the main listener reports SERVING, Sign is reachable too.
const early = config.MIGRATE_ON_START
  ? undefined
  : {
      signing: await signingGrpc.listen(signingListenAddress),
      main: await grpc.listen(listenAddress),
    };
const service = await buildAuthService(config, log);
signingGrpc.serve(service.signingGrpcServices);
grpc.serve(service.grpcServices);
const signingPort = early?.signing ?? (await signingGrpc.listen(signingListenAddress));
const port = early?.main ?? (await grpc.listen(listenAddress));
log.info({ port, signingPort, metricsPort }, "auth listening");
closeOnSignals(
  log,
  [
    // The gateway and alerts finish their own in-flight work first, calling auth.
    waitForCallers(callers, config.GRPC_DRAIN_MS, log),
    {
      name: "grpc",
      close: (ms) => Promise.all([grpc.close(Math.max(0, ms - 50)), signingGrpc.close(Math.max(0, ms - 50))]),
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
