import { closeOnSignals } from "@pulsegate/lifecycle";
import { createLogger } from "@pulsegate/logger";
import { connectRedis } from "@pulsegate/redis";
import { shutdownTelemetry } from "@pulsegate/telemetry";
import { buildApp } from "./app.ts";
import { loadGatewayConfig } from "./config.ts";
import { connectPeers } from "./peers/connect-peers.ts";

const config = loadGatewayConfig();
const log = createLogger("gateway", config.LOG_LEVEL);
if (config.adminTokenGenerated) {
  // Development only (production refuses to start without ADMIN_TOKEN). Printed, never logged.
  process.stderr.write(`ADMIN_TOKEN not set; generated for this run: ${config.adminToken}\n`);
}
const peers = connectPeers(
  { auth: config.AUTH_GRPC_ADDR, alerts: config.ALERTS_GRPC_ADDR, monitors: config.MONITORS_GRPC_ADDR },
  config.GRPC_TIMEOUT_MS,
);
const redis = connectRedis(config.REDIS_URL, log);
const app = buildApp({
  log,
  peers,
  redis,
  adminToken: config.adminToken,
  webhookCacheMs: config.WEBHOOK_CACHE_MS,
  publicBaseUrl: config.publicBaseUrl,
  trustProxy: config.trustProxy,
});
await app.listen({ port: config.PORT, host: config.HOST });
closeOnSignals(log, [
  { name: "http", close: () => app.close() },
  { name: "grpc clients", close: () => peers.close() },
  { name: "redis", close: () => redis.quit() },
  { name: "telemetry", close: shutdownTelemetry },
]);
