import { randomUUID } from "node:crypto";
import type { Logger } from "@pulsegate/logger";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { installErrorHandling, sendError, toHttpError } from "./error-handler.ts";
import { errors } from "./errors.ts";
import { createCoalescedCalls } from "./peers/coalesced-calls.ts";
import type { Peers } from "./peers/connect-peers.ts";
import { acceptRawBodies, BODY_LIMIT_BYTES } from "./pipeline/raw-body.ts";
import { nulCharacterDetails } from "./pipeline/reject-nul.ts";
import { createRateLimiter } from "./rate-limit/webhook-rate-limiter.ts";
import { adminRoutes } from "./routes/admin/admin-routes.ts";
import { healthRoutes } from "./routes/health/health-routes.ts";
import { pingRoute } from "./routes/ping/ping-route.ts";
import { triggerRoute } from "./routes/trigger/trigger-route.ts";

export type AppDeps = {
  log: Logger;
  /** gRPC clients of auth, alerts and monitors; the caller closes them. */
  peers: Peers;
  /** Rate-limit store (see connectRedis); the caller closes it. */
  redis: Redis;
  adminToken: string;
  /** How long ResolveWebhook / ResolveMonitor answers are reused, in ms (0: never). */
  webhookCacheMs: number;
  /** Where callers reach the public endpoints (PUBLIC_BASE_URL); default: the admin request's own host. */
  publicBaseUrl?: string | undefined;
  /** Fastify's trustProxy: true, or addresses/CIDRs of the proxies (TRUST_PROXY). */
  trustProxy?: boolean | string | undefined;
};

/** Builds the gateway without starting it: tests use `inject` or listen on port 0. */
export function buildApp(deps: AppDeps): FastifyInstance {
  const app = Fastify({
    // Typed as Fastify's logger so the instance is a plain FastifyInstance for plugins.
    loggerInstance: deps.log as FastifyBaseLogger,
    // packages/logger redacts every `*.url` (notification URLs), which removes Fastify's
    // req.url too; each request's lines carry its path (never the query) instead.
    childLoggerFactory: (logger, bindings, options, rawRequest) =>
      logger.child({ ...bindings, path: rawRequest.url?.split("?", 1)[0] }, options),
    genReqId: () => randomUUID(),
    bodyLimit: BODY_LIMIT_BYTES,
    // A request (headers and body) must arrive within 30 s: slow senders cannot hold sockets.
    requestTimeout: 30_000,
    // Longer than the usual load balancer idle timeout (60 s), so the gateway never closes a
    // kept-alive connection the balancer is about to reuse.
    keepAliveTimeout: 65_000,
    // Behind an ingress, request.ip and request.protocol come from X-Forwarded-* (TRUST_PROXY).
    trustProxy: deps.trustProxy ?? false,
    // Unknown path tokens must still go through the signature check, however long.
    routerOptions: { maxParamLength: 1_000 },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true } },
    // Malformed URLs and over-long path parameters get the standard error body too.
    frameworkErrors: (error, request, reply) =>
      sendError(
        request,
        reply,
        toHttpError(error) ?? errors.invalidRequest([{ field: "url", message: error.message }]),
      ),
  });

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  // PostgreSQL cannot store U+0000: refuse it in admin paths, queries and
  // bodies with a 400 naming the field. Public routes keep DESIGN §2's order;
  // their tokens and bodies are checked in their own steps.
  app.addHook("preHandler", async (request) => {
    if (!request.url.startsWith("/admin/")) return;
    const details = [
      ...nulCharacterDetails(request.params, ""),
      ...nulCharacterDetails(request.query, ""),
      ...(Buffer.isBuffer(request.body) ? [] : nulCharacterDetails(request.body, "")),
    ];
    if (details.length > 0) throw errors.invalidRequest(details);
  });
  installErrorHandling(app);

  const rateLimiter = createRateLimiter({ redis: deps.redis, log: deps.log });
  const calls = createCoalescedCalls(deps.peers);

  // Public surfaces: raw bodies (the signature covers the exact bytes).
  app.register(async (publicApi) => {
    acceptRawBodies(publicApi);
    await publicApi.register(triggerRoute, {
      peers: deps.peers,
      calls,
      rateLimiter,
      webhookCacheMs: deps.webhookCacheMs,
    });
    await publicApi.register(pingRoute, {
      peers: deps.peers,
      calls,
      redis: deps.redis,
      monitorCacheMs: deps.webhookCacheMs,
    });
  });
  app.register(adminRoutes, {
    prefix: "/admin/v1",
    peers: deps.peers,
    adminToken: deps.adminToken,
    publicBaseUrl: deps.publicBaseUrl,
  });
  app.register(healthRoutes, { peers: deps.peers, redis: deps.redis });
  return app;
}
