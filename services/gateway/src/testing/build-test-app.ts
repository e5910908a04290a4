import { randomUUID } from "node:crypto";
import { createLogger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.ts";
import { connectPeers, type PeerAddresses } from "../peers/connect-peers.ts";

/** Nothing listens here: calls to it fail at once with UNAVAILABLE. */
export const DEAD_ADDRESS = "127.0.0.1:1";
export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789";
export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * The real app with real clients; peers default to an address where nothing
 * runs, so no test here needs (or fakes) auth, alerts or monitors.
 */
export function buildTestApp(
  addresses: Partial<PeerAddresses> = {},
  options: { publicBaseUrl?: string } = {},
): FastifyInstance {
  const log = createLogger("gateway-test", "silent");
  const peers = connectPeers({ auth: DEAD_ADDRESS, alerts: DEAD_ADDRESS, monitors: DEAD_ADDRESS, ...addresses }, 1_000);
  const redis = connectRedis(REDIS_URL, log);
  const app = buildApp({
    log,
    peers,
    redis,
    adminToken: TEST_ADMIN_TOKEN,
    publicBaseUrl: options.publicBaseUrl,
    webhookCacheMs: 5_000,
    // Tests run side by side on one Redis, all from 127.0.0.1: each app counts its own failures.
    redisKeyPrefix: `pulsegate-test:${randomUUID()}`,
  });
  app.addHook("onClose", async () => {
    peers.close();
    redis.disconnect();
  });
  return app;
}
