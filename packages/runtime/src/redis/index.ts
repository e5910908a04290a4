import type { Logger } from "@pulsegate/runtime/logger";
import { Redis } from "ioredis";

/**
 * A Redis client for work that must not wait on Redis: rate limits (which
 * fall back to in-process counters) and the ping spool (whose caller answers
 * 503 when nothing can store a ping). Commands fail at once instead of
 * queueing while Redis is away: no offline queue, one retry, short timeout.
 */
export function connectRedis(url: string, log: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    // The commands of one event-loop turn (a batch of requests' rate limits) go in one write.
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 2_000,
  });
  // ioredis reports every failed reconnect; callers warn once per outage.
  redis.on("error", (error: Error) => log.debug({ err: error }, "redis connection error"));
  return redis;
}
