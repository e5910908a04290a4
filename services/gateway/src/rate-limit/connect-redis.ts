import type { Logger } from "@pulsegate/logger";
import { Redis } from "ioredis";

/**
 * The Redis client for rate limits. Commands fail at once instead of queueing
 * while Redis is away (no offline queue, one retry, short timeout), so the
 * rate limiter's in-process fallback answers without delaying the request.
 */
export function connectRedis(url: string, log: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 2_000,
  });
  // ioredis reports every failed reconnect; the rate limiter warns once per outage.
  redis.on("error", (error: Error) => log.debug({ err: error }, "redis connection error"));
  return redis;
}
