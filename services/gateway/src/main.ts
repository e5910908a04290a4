import { closeOnSignals, dualStackOrIpv4, flushTelemetry, watchHttpServer } from "@pulsegate/runtime/lifecycle";
import { createLogger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import { serveMetrics } from "@pulsegate/telemetry";
import { buildApp } from "./app.ts";
import { loadGatewayConfig } from "./config.ts";
import { connectPeers } from "./peers/connect-peers.ts";

const config = loadGatewayConfig();
const log = createLogger("gateway", config.LOG_LEVEL);
if (config.adminTokenGenerated) {
  // Development only (production refuses to start without ADMIN_TOKEN). Printed, never logged.
  process.stderr.write(`ADMIN_TOKEN not set; generated for this run: ${config.adminToken}\n`);
}
const metricsPort = await serveMetrics();
const peers = connectPeers(
  { auth: config.AUTH_GRPC_ADDR, alerts: config.ALERTS_GRPC_ADDR, monitors: config.MONITORS_GRPC_ADDR },
  config.GRPC_TIMEOUT_MS,
  { notifyAttemptTimeoutMs: config.NOTIFY_ATTEMPT_TIMEOUT_MS },
);
const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, log) : undefined;
if (!redis) {
  log.info("REDIS_URL is empty: no Redis, rate limits and dashboard sessions are in process (per gateway replica)");
}
const app = buildApp({
  log,
  peers,
  redis,
  adminToken: config.adminToken,
  webhookCacheMs: config.WEBHOOK_CACHE_MS,
  monitorCache: { ttlMs: config.MONITOR_CACHE_MS, maxEntries: config.MONITOR_CACHE_MAX },
  verifiedCacheMs: config.VERIFIED_CACHE_MS,
  apiKeyCacheMs: config.API_KEY_CACHE_MS,
  publicBaseUrl: config.publicBaseUrl,
  trustProxy: config.trustProxy,
  redisKeyPrefix: config.REDIS_KEY_PREFIX,
  credentialFailures: { limit: config.AUTH_FAILURE_LIMIT, blockSeconds: config.AUTH_FAILURE_BLOCK_SECONDS },
  headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
  requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
  oidc: config.oidc,
});
const http = watchHttpServer(app.server);
await app.listen({ port: config.PORT, host: await dualStackOrIpv4(config.HOST, log) });
if (metricsPort) log.info({ metricsPort }, "metrics served");
const budgetMs = config.SHUTDOWN_TIMEOUT_MS;
closeOnSignals(
  log,
  [
    // Stop accepting, answer every request begun (a body still arriving included, so bounded
    // by the request deadline) while auth, alerts and monitors keep serving, then close.
    { name: "http", close: () => http.drain().then(() => app.close()), timeoutMs: config.REQUEST_TIMEOUT_MS + 5_000 },
    { name: "grpc clients", close: () => peers.close() },
    { name: "redis", close: () => redis?.quit() },
    flushTelemetry(budgetMs),
  ],
  { budgetMs },
);
