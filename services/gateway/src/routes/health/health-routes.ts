import { callUnary } from "@pulsegate/grpc";
import { monitors } from "@pulsegate/proto";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { PEER_SERVICE_NAMES, type PeerName, type Peers } from "../../peers/connect-peers.ts";

export type HealthRoutesOptions = { peers: Peers; redis?: Redis | undefined; checkTimeoutMs?: number };

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

const DURABILITY_NAMES: ReadonlyMap<number, string> = new Map([
  [monitors.SpoolDurability.SPOOL_DURABILITY_NONE, "none"],
  [monitors.SpoolDurability.SPOOL_DURABILITY_DURABLE, "durable"],
  [monitors.SpoolDurability.SPOOL_DURABILITY_AOF_NOT_FSYNCED, "aof_not_fsynced"],
  [monitors.SpoolDurability.SPOOL_DURABILITY_NOT_DURABLE, "not_durable"],
  [monitors.SpoolDurability.SPOOL_DURABILITY_UNKNOWN, "unknown"],
]);

/** The ping spool as monitors reports it, or null when monitors does not answer in time. */
async function spoolReport(peers: Peers, timeoutMs: number) {
  try {
    const spool = await callUnary(peers.monitors, "describeSpool", {}, { deadlineMs: timeoutMs });
    return { durability: DURABILITY_NAMES.get(spool.durability) ?? "unknown", depth: spool.depth };
  } catch {
    return null;
  }
}

/**
 * /healthz: the process answers. /readyz: the gateway itself can serve, so it
 * is 200 whenever it answers at all (while it drains it stops accepting, and
 * the probe fails). A peer that is down is reported, not fatal: pings still
 * work from caches and the spool while alerts is down, and a gateway taken out
 * of its Service would only turn 503s into refused connections. The body says
 * what each peer, Redis and the ping spool look like (`status` "degraded"
 * when anything is down or spooled pings would not survive a Redis restart);
 * `npm start` and the tests wait for every peer to be "up".
 */
export async function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions): Promise<void> {
  const { peers, redis, checkTimeoutMs = 1_000 } = options;

  // Probes come every few seconds; their access lines would drown the rest.
  const quiet = { logLevel: "warn" as const };

  const tags = ["operations"];
  app.get(
    "/healthz",
    {
      ...quiet,
      schema: {
        tags,
        summary: "Liveness: the process answers",
        response: { 200: { type: "object", properties: { status: { type: "string", enum: ["ok"] } } } },
      },
    },
    async () => ({ status: "ok" }),
  );

  const check = { type: "string", enum: ["up", "down", "none"] };
  const readiness = {
    description: "Always 200 while the gateway serves; `degraded` says what is down.",
    type: "object",
    required: ["status", "checks", "spool"],
    properties: {
      status: { type: "string", enum: ["ready", "degraded"] },
      checks: {
        type: "object",
        properties: { auth: check, alerts: check, monitors: check, redis: check },
      },
      spool: {
        description: "The ping spool as monitors reports it; null when monitors does not answer.",
        anyOf: [
          {
            type: "object",
            properties: {
              durability: { type: "string", enum: ["none", "durable", "aof_not_fsynced", "not_durable", "unknown"] },
              depth: { type: "integer" },
            },
          },
          { type: "null" },
        ],
      },
    },
  };
  app.get(
    "/readyz",
    { ...quiet, schema: { tags, summary: "Readiness, and the state of every peer", response: { 200: readiness } } },
    async (_request, reply) => {
      const names = Object.keys(PEER_SERVICE_NAMES) as PeerName[];
      const [redisUp, spool, ...peersUp] = await Promise.all([
        redis ? redisAnswers(redis, checkTimeoutMs) : undefined,
        spoolReport(peers, checkTimeoutMs),
        ...names.map((name) => peers.health[name].check(PEER_SERVICE_NAMES[name], checkTimeoutMs)),
      ]);
      const checks: Record<string, "up" | "down" | "none"> = {};
      names.forEach((name, index) => {
        checks[name] = peersUp[index] ? "up" : "down";
      });
      checks.redis = redisUp === undefined ? "none" : redisUp ? "up" : "down";
      const healthy =
        peersUp.every(Boolean) &&
        redisUp !== false &&
        (spool?.durability === "durable" || spool?.durability === "none");
      return reply.code(200).send({ status: healthy ? "ready" : "degraded", checks, spool });
    },
  );
}
