import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { PEER_SERVICE_NAMES, type PeerName, type Peers } from "../../peers/connect-peers.ts";

export type HealthRoutesOptions = { peers: Peers; redis: Redis; checkTimeoutMs?: number };

/** PONG within `timeoutMs`, waiting for a connection in progress (there is no offline queue). */
async function redisAnswers(redis: Redis, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ready =
    redis.status === "ready"
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          onReady = resolve;
          redis.once("ready", onReady);
        });
  try {
    return await Promise.race([ready.then(() => redis.ping()).then((answer) => answer === "PONG"), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    if (onReady) redis.off("ready", onReady);
  }
}

/**
 * /healthz: the process answers. /readyz: every gRPC peer answers SERVING to
 * grpc.health.v1 within the timeout (else 503). Redis is reported but not
 * required: without it rate limits fall back to in-process counters.
 */
export async function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions): Promise<void> {
  const { peers, redis, checkTimeoutMs = 1_000 } = options;

  // Probes come every few seconds; their access lines would drown the rest.
  const quiet = { logLevel: "warn" as const };

  app.get("/healthz", quiet, async () => ({ status: "ok" }));

  app.get("/readyz", quiet, async (_request, reply) => {
    const names = Object.keys(PEER_SERVICE_NAMES) as PeerName[];
    const [redisUp, ...peersUp] = await Promise.all([
      redisAnswers(redis, checkTimeoutMs),
      ...names.map((name) => peers.health[name].check(PEER_SERVICE_NAMES[name], checkTimeoutMs)),
    ]);
    const checks: Record<string, "up" | "down"> = {};
    names.forEach((name, index) => {
      checks[name] = peersUp[index] ? "up" : "down";
    });
    checks.redis = redisUp ? "up" : "down";
    const ready = peersUp.every(Boolean);
    const status = !ready ? "unavailable" : redisUp ? "ready" : "degraded";
    return reply.code(ready ? 200 : 503).send({ status, checks });
  });
}
