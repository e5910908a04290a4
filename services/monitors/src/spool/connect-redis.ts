import type { Logger } from "@pulsegate/logger";
import { Redis } from "ioredis";

/**
 * The Redis client of the ping spool. Commands fail at once instead of
 * queueing while Redis is away (no offline queue, one retry, short timeout):
 * a ping that can be stored nowhere must be answered 503 within the
 * gateway's deadline, not held.
 */
export function connectRedis(url: string, log: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 2_000,
  });
  redis.on("error", (error: Error) => log.debug({ err: error }, "redis connection error"));
  return redis;
}
