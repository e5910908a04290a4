import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { REQUEST_LIMITS } from "@pulsegate/contract/limits";
import type { Logger } from "@pulsegate/runtime/logger";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import type { Redis } from "ioredis";
import { createAuditRecorder } from "./audit/audit-recorder.ts";
import { answerClientErrors } from "./client-error-handler.ts";
import { installErrorHandling, sendError, toHttpError } from "./error-handler.ts";
import { errors } from "./errors.ts";
import { lazyRequestLogger } from "./lazy-request-logger.ts";
import { registerOpenApi } from "./openapi/register-openapi.ts";
import { createCoalescedCalls } from "./peers/coalesced-calls.ts";
import type { Peers } from "./peers/connect-peers.ts";
import { refuseEmptyPathParameters } from "./pipeline/empty-path-parameters.ts";
import { acceptRawBodies } from "./pipeline/raw-body.ts";
import { createReplayGuard } from "./pipeline/replay-guard.ts";
import { createTeamChanges } from "./pipeline/team-changes.ts";
import { createCredentialFailureThrottle } from "./rate-limit/credential-failure-throttle.ts";
import { createRateLimiter } from "./rate-limit/webhook-rate-limiter.ts";
import { adminRoutes } from "./routes/admin/admin-routes.ts";
import { createApiKeyAuthenticator } from "./routes/admin/api-key-authenticator.ts";
import { createResourceOwners } from "./routes/admin/resource-owners.ts";
import { createTeamPresence } from "./routes/admin/team-presence.ts";
import { createUserPasses } from "./routes/admin/user-passes.ts";
import { alertmanagerRoute } from "./routes/alertmanager/alertmanager-route.ts";
import { badgeRoute, createBadgeLookup } from "./routes/badge/badge-route.ts";
import { createSessionStore } from "./routes/dashboard/create-session-store.ts";
import { dashboardRoutes } from "./routes/dashboard/dashboard-routes.ts";
import type { OidcSettings } from "./routes/dashboard/oidc/oidc-settings.ts";
import { rootRedirect } from "./routes/dashboard/root-redirect.ts";
import { keyPrincipal } from "./routes/dashboard/session-store.ts";
import { healthRoutes } from "./routes/health/health-routes.ts";
import { createMonitorLookup } from "./routes/ping/monitor-lookup.ts";
import { pingRoute } from "./routes/ping/ping-route.ts";
import { triggerRoute } from "./routes/trigger/trigger-route.ts";
import { createWebhookLookup } from "./routes/trigger/webhook-lookup.ts";
import { narrowDateTimeFormat } from "./validation/date-time-format.ts";
import { addJsonBoundsKeyword } from "./validation/json-bounds-keyword.ts";

export type AppDeps = {
  log: Logger;
  /** gRPC clients of auth, alerts and monitors; the caller closes them. */
  peers: Peers;
  /** Rate-limit store (see connectRedis); the caller closes it. None: limits in process (per replica). */
  redis?: Redis | undefined;
  adminToken: string;
  /** How long ResolveWebhook answers, and "no such monitor", are reused, in ms (0: never). */
  webhookCacheMs: number;
  /** The monitor look-up cache (default: 5 minutes, 200,000 monitors). */
  monitorCache?: { ttlMs: number; maxEntries: number } | undefined;
  /** How long a verified (team, signature, body) is reused without asking auth, in ms (0: never). */
  verifiedCacheMs?: number | undefined;
  /** How long a verified team API key is reused without asking auth, in ms (0: never; default 5 s). */
  apiKeyCacheMs?: number | undefined;
  /** Where callers reach the public endpoints (PUBLIC_BASE_URL); default: the admin request's own host. */
  publicBaseUrl?: string | undefined;
  /** Fastify's trustProxy: true, or addresses/CIDRs of the proxies (TRUST_PROXY). */
  trustProxy?: boolean | string | undefined;
  /** Deadline for a request's headers, from its first byte, in ms (HEADERS_TIMEOUT_MS; default 10 s). */
  headersTimeoutMs?: number;
  /** Deadline for the whole request, from its first byte, in ms (REQUEST_TIMEOUT_MS; default 30 s). */
  requestTimeoutMs?: number;
  /** Namespace of dashboard sessions and failure counts in Redis (REDIS_KEY_PREFIX; default `pulsegate`). */
  redisKeyPrefix?: string | undefined;
  /** Failed credentials per client address a minute, and the block after (AUTH_FAILURE_*; default 20, 60 s). */
  credentialFailures?: { limit: number; blockSeconds: number } | undefined;
  /** Dashboard sign-in through an OpenID Connect provider (OIDC_*); none: tokens only. */
  oidc?: OidcSettings | undefined;
};

/**
 * Fastify's own per-request lines ("incoming request", "request completed") at
 * debug instead of info; failures are logged by the error handler.
 */
class QuietRequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug("incoming request");
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    request.log.debug(
      { statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime), err: error ?? undefined },
      "request completed",
    );
  }
}

const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string })
  .version;

/** Builds the gateway without starting it: tests use `inject` or listen on port 0. */
export function buildApp(deps: AppDeps): FastifyInstance {
  const { headersTimeoutMs = 10_000, requestTimeoutMs = 30_000 } = deps;
  const app = Fastify({
    // Typed as Fastify's logger so the instance is a plain FastifyInstance for plugins.
    loggerInstance: deps.log as FastifyBaseLogger,
    // packages/runtime/src/logger redacts every `*.url` (notification URLs), which removes Fastify's
    // req.url too; each request's lines carry its path (never the query) instead.
    childLoggerFactory: (logger, bindings, options, rawRequest) =>
      lazyRequestLogger(logger, () => ({ ...bindings, path: rawRequest.url?.split("?", 1)[0] }), options),
    genReqId: () => randomUUID(),
    // No per-request lines at info: at thousands of requests a second they cost more than the request.
    logController: new QuietRequestLog(),
    bodyLimit: REQUEST_LIMITS.bodyMaxBytes,
    // Slow senders cannot hold sockets: headers and the whole request each have a deadline.
    // Node enforces the later of headersTimeout and requestTimeout (its default 60 s headers
    // deadline made a 30 s request one 60 s), checking every connectionsCheckingInterval
    // (30 s by default), so all three are set here.
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
    },
    // 400, 408 and 431 answered by the server itself get the standard error body too.
    clientErrorHandler: answerClientErrors(deps.log),
    // Longer than the usual load balancer idle timeout (60 s), so the gateway never closes a
    // kept-alive connection the balancer is about to reuse.
    keepAliveTimeout: 65_000,
    // Behind an ingress, request.ip and request.protocol come from X-Forwarded-* (TRUST_PROXY).
    trustProxy: deps.trustProxy ?? false,
    // Unknown path tokens must still go through the signature check, however long.
    routerOptions: { maxParamLength: 1_000 },
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true },
      onCreate: (ajv) => {
        narrowDateTimeFormat(ajv);
        addJsonBoundsKeyword(ajv);
      },
    },
    // Malformed URLs and over-long path parameters get the standard error body too.
    frameworkErrors: (error, request, reply) =>
      sendError(
        request,
        reply,
        toHttpError(error) ?? errors.invalidRequest([{ field: "url", message: error.message }]),
      ),
  });

  // A callback hook, not an async one: no promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  refuseEmptyPathParameters(app);
  installErrorHandling(app);
  // Response schemas document the API (OpenAPI); answers are built by the JSON mappers and sent
  // exactly as JSON.stringify writes them, as before the schemas existed: nothing is dropped or coerced.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Before every route: it collects them as they are added.
  registerOpenApi(app, VERSION, deps.publicBaseUrl);

  const rateLimiter = createRateLimiter({ redis: deps.redis, log: deps.log });
  const redisKeyPrefix = deps.redisKeyPrefix ?? "pulsegate";
  const credentialFailures = createCredentialFailureThrottle({
    redis: deps.redis,
    log: deps.log,
    keyPrefix: redisKeyPrefix,
    ...(deps.credentialFailures ?? { limit: 20, blockSeconds: 60 }),
  });
  const sessions = createSessionStore({
    redis: deps.redis,
    log: deps.log,
    keyPrefix: redisKeyPrefix,
  });
  app.addHook("onClose", () => sessions.close());
  const calls = createCoalescedCalls(deps.peers, { verifiedCacheMs: deps.verifiedCacheMs ?? 0 });
  const monitorLookup = createMonitorLookup(deps.peers, {
    ttlMs: deps.monitorCache?.ttlMs ?? 300_000,
    maxEntries: deps.monitorCache?.maxEntries ?? 200_000,
    negativeTtlMs: deps.webhookCacheMs,
  });
  const webhooks = createWebhookLookup(deps.peers, deps.webhookCacheMs);
  const badges = createBadgeLookup(deps.peers, deps.webhookCacheMs);
  const apiKeys = createApiKeyAuthenticator(deps.peers, { ttlMs: deps.apiKeyCacheMs ?? 5_000 });
  const owners = createResourceOwners(deps.peers);
  const presence = createTeamPresence(deps.peers, { ttlMs: 30_000 });
  // A team changed through any replica: every replica's cached verdicts of it go at once; a webhook,
  // monitor or team deleted (or a monitor changed) through any replica: every replica's look-ups of it.
  const teamChanges = createTeamChanges({
    redis: deps.redis,
    log: deps.log,
    keyPrefix: redisKeyPrefix,
    forgetTeam: calls.forgetTeam,
    forgetAll: calls.forgetAll,
    forgetLookups: (notice) => {
      if (notice.kind === "webhook") webhooks.invalidate(notice.webhookUrl);
      if (notice.kind === "monitor") {
        monitorLookup.invalidate(notice.pingUrl);
        badges.invalidate(notice.badgeToken);
      }
      if (notice.kind === "team") {
        const ofTeam = (resource: { teamId: string } | undefined) => resource?.teamId === notice.teamId;
        webhooks.invalidateWhere(ofTeam);
        monitorLookup.invalidateWhere(ofTeam);
        badges.invalidateWhere(ofTeam);
        owners.forgetTeam(notice.teamId);
        presence.forget(notice.teamId);
        apiKeys.forgetTeam(notice.teamId);
      }
    },
    forgetAllLookups: () => {
      webhooks.clear();
      monitorLookup.clear();
      badges.clear();
      owners.clear();
      presence.clear();
    },
  });
  app.addHook("onClose", () => teamChanges.close());

  // Public surfaces: raw bodies (the signature covers the exact bytes).
  app.register(async (publicApi) => {
    acceptRawBodies(publicApi);
    await publicApi.register(triggerRoute, {
      peers: deps.peers,
      calls,
      rateLimiter,
      replayGuard: createReplayGuard({ redis: deps.redis, log: deps.log }),
      webhooks,
    });
    await publicApi.register(alertmanagerRoute, { peers: deps.peers, calls, rateLimiter });
    await publicApi.register(pingRoute, {
      peers: deps.peers,
      calls,
      redis: deps.redis,
      monitorLookup,
    });
  });
  const auditRecorder = createAuditRecorder(deps.peers, deps.log);
  const passes = createUserPasses();
  // Entries of actions already answered are sent before the gRPC clients close.
  app.addHook("onClose", () => auditRecorder.flush(5_000));
  app.register(adminRoutes, {
    prefix: "/admin/v1",
    peers: deps.peers,
    adminToken: deps.adminToken,
    apiKeys,
    passes,
    auditRecorder,
    publicBaseUrl: deps.publicBaseUrl,
    monitorLookup,
    onTeamChanged: teamChanges.announce,
    announceLookups: teamChanges.announceLookups,
    owners,
    presence,
    credentialFailures,
    // A revoked key's dashboard sessions end with it, on every replica.
    onApiKeyRevoked: (apiKeyId) => sessions.destroyPrincipal(keyPrincipal(apiKeyId)),
  });
  app.register(healthRoutes, { peers: deps.peers, redis: deps.redis });
  app.register(badgeRoute, { badges });
  // The web dashboard: pages in front of the admin API above, called in process (docs/dashboard.md).
  app.register(dashboardRoutes, {
    gateway: app,
    adminToken: deps.adminToken,
    apiKeys,
    sessions,
    credentialFailures,
    passes,
    oidc: deps.oidc,
    publicBaseUrl: deps.publicBaseUrl,
  });
  app.register(rootRedirect);
  return app;
}
