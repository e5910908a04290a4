import { BATCH_LIMITS } from "@pulsegate/contract/limits";
import { callUnary } from "@pulsegate/grpc";
import { monitors } from "@pulsegate/proto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import { errors, HttpError } from "../../errors.ts";
import { pingOutcomes } from "../../metrics.ts";
import {
  documentationOnly,
  pingGetRouteSchema,
  pingPostRouteSchema,
  pingStartGetRouteSchema,
  pingStartRouteSchema,
} from "../../openapi/public-route-docs.ts";
import { batchPerTurn } from "../../peers/batch-per-turn.ts";
import type { CoalescedCalls } from "../../peers/coalesced-calls.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { resendKeyedItems } from "../../peers/resend-keyed-items.ts";
import { readDryRun } from "../../pipeline/dry-run.ts";
import { idempotencyFields, markReplayed, readIdempotencyKey } from "../../pipeline/idempotency-key.ts";
import { isJsonContentType, parseJsonBody } from "../../pipeline/json-body.ts";
import { contentTypeOf, rawBodyOf } from "../../pipeline/raw-body.ts";
import { replayClaimOf, replayedRequest } from "../../pipeline/replay-guard.ts";
import { requireSignatureHeader } from "../../pipeline/require-signature.ts";
import { requireActiveSubscription, requireValidSignature } from "../../pipeline/require-valid-signature.ts";
import { readSignedRequest } from "../../pipeline/signed-request.ts";
import { createPingRateLimiter } from "../../rate-limit/ping-rate-limiter.ts";
import { rateLimitHeaders } from "../../rate-limit/rate-limit-headers.ts";
import { type PingBody, parsePingBody } from "../../validation/index.ts";
import type { MonitorLookup } from "./monitor-lookup.ts";
import { pingErrors } from "./ping-errors.ts";
import { dryRunPingResponse, pingResponse, toRecordPingItem } from "./ping-record.ts";

export type PingRouteOptions = {
  peers: Peers;
  calls: CoalescedCalls;
  redis?: Redis | undefined;
  monitorLookup: MonitorLookup;
};

/**
 * Step 6: an empty body is `{"status":"up"}` (`{"status":"start"}` on the
 * /start path); anything else must be a JSON object sent as JSON. The query
 * string is not signed, so none is accepted but `dryRun`, which writes nothing.
 */
function readPingBody(request: FastifyRequest, payload: Buffer, start: boolean): PingBody {
  if (payload.length === 0) return { status: start ? "start" : "up" };
  if (!isJsonContentType(contentTypeOf(request))) throw pingErrors.notJson();
  const { value: raw, inexactNumbers } = parseJsonBody(contentTypeOf(request), payload);
  const body = parsePingBody(raw, inexactNumbers);
  if (!body.ok) throw errors.invalidRequest(body.details);
  if (!start) return body.value;
  const given = (raw as { status?: unknown }).status;
  if (given !== undefined && given !== "start") throw pingErrors.notAStart();
  return { ...body.value, status: "start" };
}

/** POST|GET /api/ping/:pingUrl — DESIGN §2 ping steps 1–7, in that order. */
export async function pingRoute(app: FastifyInstance, options: PingRouteOptions): Promise<void> {
  const { peers, calls } = options;
  const lookup = options.monitorLookup;
  const limiter = createPingRateLimiter({ redis: options.redis, log: app.log });
  const recordPing = batchPerTurn(
    resendKeyedItems(
      async (items: monitors.RecordPingItem[]) => (await callUnary(peers.monitors, "recordPing", { items })).results,
    ),
    // One at a time, in arrival order (a monitor's pings are applied in order): each RecordPing is a
    // transaction whose fixed cost (round trips, a commit) is much of its price, so fewer, larger
    // batches buy throughput. Two batches side by side, each for half the monitors, did worse
    // (7,400 → 6,450 req/s; docs/performance.md).
    { name: "RecordPing", maxBatch: BATCH_LIMITS.maxItemsPerCall, maxInFlight: 1, ordered: true },
  );

  const handler = async (
    request: FastifyRequest<{ Params: { pingUrl: string } }>,
    reply: FastifyReply,
    start: boolean,
  ) => {
    const receivedAt = new Date();
    requireSignatureHeader(request);

    const { pingUrl } = request.params;
    const monitor = await lookup.get(pingUrl);
    if (!monitor || monitor.status === monitors.MonitorStatus.MONITOR_STATUS_PAUSED) throw errors.monitorNotFound();

    const payload = rawBodyOf(request);
    const signed = readSignedRequest(request, payload, monitor);
    const access = await requireValidSignature(
      calls,
      { teamId: monitor.teamId, ...signed.verify },
      errors.monitorNotFound,
    );

    requireActiveSubscription(access);

    // Step 6 is worked out first but answered after step 5: a ping URL over its limit hears 429
    // whatever its body, and only an acceptable ping is logged in the window (one atomic step).
    let body: PingBody | HttpError;
    let dryRun = false;
    let idempotencyKey = "";
    try {
      dryRun = readDryRun(request.query);
      body = readPingBody(request, payload, start);
      if (!dryRun) idempotencyKey = readIdempotencyKey(request, signed.webhookId);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      body = error;
    }
    // A dry run is checked against the window but not logged in it: only accepted pings count.
    // A timestamped ping to be logged is taken once, in the same step (replay-guard.ts).
    const acceptable = !(body instanceof HttpError) && !dryRun;
    const claim =
      acceptable && signed.timestamp !== null
        ? replayClaimOf(monitor.id, signed.signature, signed.timestamp, "")
        : undefined;
    const decision = await limiter.consume(pingUrl, acceptable, claim);
    if (decision.replayed) throw replayedRequest();
    const limitHeaders = rateLimitHeaders(decision);
    reply.headers(limitHeaders);
    if (!decision.allowed) throw pingErrors.rateLimited(limitHeaders);
    if (body instanceof HttpError) throw body;
    if (dryRun) {
      const item = toRecordPingItem(monitor, access, body, request.method, receivedAt);
      const preview = await callUnary(peers.monitors, "previewPings", { items: [item] });
      return reply.code(200).send(dryRunPingResponse(preview.results[0], monitor, body));
    }

    const idempotency = idempotencyFields(idempotencyKey, start ? "start" : "ping", monitor.id, payload);
    let result: monitors.RecordPingResult | undefined;
    try {
      result = await recordPing(toRecordPingItem(monitor, access, body, request.method, receivedAt, idempotency));
    } catch (error) {
      await decision.release();
      throw error;
    }
    const recorded =
      (result?.outcome === monitors.RecordOutcome.RECORD_OUTCOME_RECORDED ||
        result?.outcome === monitors.RecordOutcome.RECORD_OUTCOME_SPOOLED) &&
      !result.replayed;
    // Only accepted pings count: one the monitors service did not take (or answered from its key's
    // first ping) leaves the window again.
    if (!recorded) await decision.release();
    markReplayed(reply, result?.replayed);
    if (
      result?.outcome === monitors.RecordOutcome.RECORD_OUTCOME_PAUSED ||
      result?.outcome === monitors.RecordOutcome.RECORD_OUTCOME_MONITOR_NOT_FOUND
    ) {
      lookup.invalidate(pingUrl);
    }
    if (recorded) {
      pingOutcomes.add(1, {
        status: body.status,
        stored: result?.outcome === monitors.RecordOutcome.RECORD_OUTCOME_SPOOLED ? "spooled" : "recorded",
      });
    }
    return reply.code(200).send(pingResponse(result, monitor, body));
  };

  // Documented, not validated by Fastify: the body is checked at step 6, after the signature.
  // A HEAD is not a ping.
  const routeOptions = { validatorCompiler: documentationOnly, exposeHeadRoute: false } as const;
  type PingRequest = FastifyRequest<{ Params: { pingUrl: string } }>;
  const ping = (request: PingRequest, reply: FastifyReply) => handler(request, reply, false);
  const startRun = (request: PingRequest, reply: FastifyReply) => handler(request, reply, true);
  app.post("/api/ping/:pingUrl", { ...routeOptions, schema: pingPostRouteSchema }, ping);
  app.get("/api/ping/:pingUrl", { ...routeOptions, schema: pingGetRouteSchema }, ping);
  // Start signals, signed the same way: the same as a ping with {"status":"start"}.
  app.post("/api/ping/:pingUrl/start", { ...routeOptions, schema: pingStartRouteSchema }, startRun);
  app.get("/api/ping/:pingUrl/start", { ...routeOptions, schema: pingStartGetRouteSchema }, startRun);
}
