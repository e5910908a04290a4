import { callUnary } from "@pulsegate/grpc";
import { monitors } from "@pulsegate/proto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import { errors } from "../../errors.ts";
import { pingOutcomes } from "../../metrics.ts";
import { batchPerTurn } from "../../peers/batch-per-turn.ts";
import type { CoalescedCalls } from "../../peers/coalesced-calls.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { isJsonContentType, parseJsonBody } from "../../pipeline/json-body.ts";
import { contentTypeOf, rawBodyOf } from "../../pipeline/raw-body.ts";
import { requireSignature } from "../../pipeline/require-signature.ts";
import { requireActiveSubscription, verifySignature } from "../../pipeline/verify-signature.ts";
import { createPingRateLimiter } from "../../rate-limit/ping-rate-limiter.ts";
import { rateLimitHeaders } from "../../rate-limit/rate-limit-headers.ts";
import { type PingBody, parsePingBody } from "../../validation/index.ts";
import { createMonitorLookup } from "./monitor-lookup.ts";
import { pingErrors } from "./ping-errors.ts";
import { pingResponse, toRecordPingItem } from "./ping-record.ts";

export type PingRouteOptions = { peers: Peers; calls: CoalescedCalls; redis: Redis; monitorCacheMs: number };

/**
 * Step 6: an empty body is `{"status":"up"}`; anything else must be a JSON
 * object sent as JSON. The query string is not signed, so none is accepted.
 */
function readPingBody(request: FastifyRequest, payload: Buffer): PingBody {
  if (request.url.includes("?")) throw pingErrors.queryNotAllowed();
  if (payload.length === 0) return { status: "up" };
  if (!isJsonContentType(contentTypeOf(request))) throw pingErrors.notJson();
  const body = parsePingBody(parseJsonBody(contentTypeOf(request), payload));
  if (!body.ok) throw errors.invalidRequest(body.details);
  return body.value;
}

/** POST|GET /api/ping/:pingUrl — DESIGN §2 ping steps 1–7, in that order. */
export async function pingRoute(app: FastifyInstance, options: PingRouteOptions): Promise<void> {
  const { peers, calls } = options;
  const lookup = createMonitorLookup(peers, options.monitorCacheMs);
  const limiter = createPingRateLimiter({ redis: options.redis, log: app.log });
  const recordPing = batchPerTurn(
    async (items: monitors.RecordPingItem[]) =>
      (await callUnary(peers.monitors, peers.monitors.recordPing, { items }, peers.timeoutMs)).results,
  );

  app.route<{ Params: { pingUrl: string } }>({
    method: ["GET", "POST"],
    url: "/api/ping/:pingUrl",
    // A HEAD is not a ping.
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const receivedAt = new Date();
      const signature = requireSignature(request);

      const { pingUrl } = request.params;
      const monitor = await lookup.get(pingUrl);
      if (!monitor || monitor.status === monitors.MonitorStatus.MONITOR_STATUS_PAUSED) throw errors.monitorNotFound();

      const payload = rawBodyOf(request);
      const access = await verifySignature(
        calls,
        { teamId: monitor.teamId, payload, signature },
        errors.monitorNotFound,
      );

      requireActiveSubscription(access);

      const decision = await limiter.consume(pingUrl);
      const limitHeaders = rateLimitHeaders(decision);
      reply.headers(limitHeaders);
      if (!decision.allowed) throw pingErrors.rateLimited(limitHeaders);

      const body = readPingBody(request, payload);

      const result = await recordPing(toRecordPingItem(monitor, access, body, request.method, receivedAt));
      if (
        result?.outcome === monitors.RecordOutcome.RECORD_OUTCOME_PAUSED ||
        result?.outcome === monitors.RecordOutcome.RECORD_OUTCOME_MONITOR_NOT_FOUND
      ) {
        lookup.invalidate(pingUrl);
      }
      pingOutcomes.add(1, {
        status: body.status,
        stored: result?.outcome === monitors.RecordOutcome.RECORD_OUTCOME_SPOOLED ? "spooled" : "recorded",
      });
      return reply.code(200).send(pingResponse(result, monitor, body));
    },
  });
}
