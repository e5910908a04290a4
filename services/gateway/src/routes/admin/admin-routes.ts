import { findUnstorableText } from "@pulsegate/contract/text";
import type { FastifyInstance } from "fastify";
import type { AuditRecorder } from "../../audit/audit-recorder.ts";
import { errors, HttpError } from "../../errors.ts";
import { adminErrorResponses } from "../../openapi/error-responses.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import type { LookupNotice } from "../../pipeline/lookup-notices.ts";
import type { CredentialFailureThrottle } from "../../rate-limit/credential-failure-throttle.ts";
import { secondsUntil } from "../../rate-limit/rate-limit-headers.ts";
import type { MonitorLookup } from "../ping/monitor-lookup.ts";
import { createAccessCheck } from "./access.ts";
import { setActor } from "./actor.ts";
import { alertRoutes } from "./alert-routes.ts";
import type { ApiKeyAuthenticator } from "./api-key-authenticator.ts";
import { apiKeyRoutes } from "./api-key-routes.ts";
import { auditLogRoutes } from "./audit-log-routes.ts";
import { createActorAuthenticator } from "./authenticate-actor.ts";
import { channelRoutes } from "./channel-routes.ts";
import { kekRoutes } from "./kek-routes.ts";
import { monitorRoutes } from "./monitor-routes.ts";
import { createRecordAudit } from "./record-audit.ts";
import type { ResourceOwners } from "./resource-owners.ts";
import { silenceRoutes } from "./silence-routes.ts";
import type { TeamPresence } from "./team-presence.ts";
import { teamRoutes } from "./team-routes.ts";
import { usageRoutes } from "./usage-routes.ts";
import type { UserPasses } from "./user-passes.ts";
import { webhookRoutes } from "./webhook-routes.ts";

export type AdminRoutesOptions = {
  peers: Peers;
  adminToken: string;
  /** Team API keys, resolved through auth and kept for seconds. */
  apiKeys: ApiKeyAuthenticator;
  /** Where admin actions go once they succeeded. */
  auditRecorder: AuditRecorder;
  publicBaseUrl?: string | undefined;
  /** The ping route's monitor cache, told about pauses and resumes made here. */
  monitorLookup?: MonitorLookup | undefined;
  /** Called after a team's settings or secret changed here (cached verifications are forgotten, on every replica). */
  onTeamChanged?: ((teamId: string) => Promise<void>) | undefined;
  /** The passes of people signed in to the dashboard (user-passes.ts). */
  passes: UserPasses;
  /** Failed bearer tokens, counted per client address with failed dashboard sign-ins. */
  credentialFailures: CredentialFailureThrottle;
  /** Called once a key was revoked here, or deleted with its team (its dashboard sessions end). */
  onApiKeyRevoked?: ((apiKeyId: string) => Promise<void>) | undefined;
  /** The team each resource belongs to, asked of its service and kept (app.ts: deletions drop entries). */
  owners: ResourceOwners;
  /** Whether a resource's team still exists (a deleted team's resources are not found at once). */
  presence: TeamPresence;
  /** Tells every gateway to forget look-ups a deletion or change made stale, before it is answered. */
  announceLookups?: ((notice: LookupNotice) => Promise<void>) | undefined;
};

/** The admin API (DESIGN §7), registered under /admin/v1. */
export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions): Promise<void> {
  const authenticateActor = createActorAuthenticator(options.adminToken, options.apiKeys, options.passes);
  const failures = options.credentialFailures;
  const checkAccess = createAccessCheck(options.owners, options.presence);
  const announceLookups = options.announceLookups ?? (async () => undefined);
  const audit = createRecordAudit(options.auditRecorder);

  // Every admin route says which team it acts on (access.ts), and is documented with the
  // bearer scheme and the errors every admin route can answer.
  app.addHook("onRoute", (route) => {
    if (route.method !== "HEAD" && route.config?.access === undefined) {
      throw new Error(`admin route ${route.method} ${route.url} declares no access rule (config.access)`);
    }
    route.schema = {
      ...route.schema,
      security: [{ bearerAuth: [] }],
      response: { ...adminErrorResponses, ...(route.schema?.response as object | undefined) },
    };
  });

  // Text that cannot be stored as sent (U+0000, unpaired surrogates): refused in paths, queries and
  // bodies with a 400 naming the field. (The public routes check their tokens and bodies in their own steps.)
  app.addHook("preHandler", async (request) => {
    const details = [
      ...findUnstorableText(request.params, ""),
      ...findUnstorableText(request.query, ""),
      ...(Buffer.isBuffer(request.body) ? [] : findUnstorableText(request.body, "")),
    ];
    if (details.length > 0) throw errors.invalidRequest(details);
  });
  // After the body's checks, so a resource of another team is answered exactly like one that does not exist.
  app.addHook("preHandler", checkAccess);

  // JSON only: a text/plain body would otherwise reach the schemas as a string.
  app.removeContentTypeParser("text/plain");

  // onRequest runs before the body is read, so strangers get 401 whatever they send.
  app.addHook("onRequest", async (request, reply) => {
    // Some answers carry a secret; none of them is worth caching.
    reply.header("cache-control", "no-store");
    // An address that sent too many wrong tokens waits, before its token is even looked at.
    const blockedMs = await failures.blockedForMs(request.ip);
    if (blockedMs > 0) throw errors.tooManyFailures(secondsUntil(blockedMs));
    try {
      setActor(request, await authenticateActor(request.headers.authorization, request.method));
    } catch (error) {
      if (error instanceof HttpError && error.code === "unauthorized") await failures.recordFailure(request.ip);
      throw error;
    }
  });
  // A POST without a body is an empty object, so the schemas report missing fields.
  app.addHook("preValidation", async (request) => {
    if (request.body === undefined) request.body = {};
  });

  const { peers } = options;
  await app.register(teamRoutes, {
    peers,
    audit,
    onTeamChanged: options.onTeamChanged,
    announceLookups,
    onApiKeysDeleted: async (apiKeyIds) => {
      for (const id of apiKeyIds) {
        options.apiKeys.forget(id);
        await options.onApiKeyRevoked?.(id);
      }
    },
  });
  await app.register(usageRoutes, { peers });
  await app.register(apiKeyRoutes, { peers, audit, apiKeys: options.apiKeys, onRevoked: options.onApiKeyRevoked });
  await app.register(auditLogRoutes, { peers });
  await app.register(webhookRoutes, {
    peers,
    audit,
    publicBaseUrl: options.publicBaseUrl,
    owners: options.owners,
    announceLookups,
  });
  await app.register(alertRoutes, { peers, audit });
  await app.register(monitorRoutes, {
    peers,
    audit,
    publicBaseUrl: options.publicBaseUrl,
    monitorLookup: options.monitorLookup,
    owners: options.owners,
    announceLookups,
  });
  await app.register(channelRoutes, { peers, audit });
  await app.register(silenceRoutes, { peers, audit });
  await app.register(kekRoutes, { peers });
}
