import { timingSafeEqual } from "node:crypto";
import fastifyCookie from "@fastify/cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { toHttpError } from "../../error-handler.ts";
import { errors, HttpError } from "../../errors.ts";
import type { CredentialFailureThrottle } from "../../rate-limit/credential-failure-throttle.ts";
import { secondsUntil } from "../../rate-limit/rate-limit-headers.ts";
import { DASHBOARD_SECURITY_HEADERS } from "../../security-headers.ts";
import { mayWrite, teamAccessOf } from "../admin/actor.ts";
import type { ApiKeyAuthenticator } from "../admin/api-key-authenticator.ts";
import { createActorAuthenticator } from "../admin/authenticate-actor.ts";
import type { UserPasses } from "../admin/user-passes.ts";
import { type ApiError, SignedOut } from "./admin-client.ts";
import { serveAssets } from "./assets.ts";
import { changedSessionOf, seeOther, sendPage, sessionOf, setSession } from "./context.ts";
import { html, renderDocument } from "./html.ts";
import { errorBlock, layout } from "./layout.ts";
import { OIDC_PUBLIC_PATHS, type OidcSignIn, oidcRoutes } from "./oidc/oidc-routes.ts";
import type { OidcSettings } from "./oidc/oidc-settings.ts";
import { teamFinder } from "./oidc/role-from-groups.ts";
import { accessPages } from "./pages/access-pages.ts";
import { alertPages } from "./pages/alert-pages.ts";
import { channelPages } from "./pages/channel-pages.ts";
import { loginPage } from "./pages/login-page.ts";
import { monitorPages } from "./pages/monitor-pages.ts";
import { silencePages } from "./pages/silence-pages.ts";
import { teamPages } from "./pages/team-pages.ts";
import { webhookPages } from "./pages/webhook-pages.ts";
import { clearSessionCookie, secureFor, sessionIdOf, setSessionCookie } from "./session-cookie.ts";
import { SessionLimitReached, type SessionStore } from "./session-store.ts";

export type DashboardOptions = {
  /** The whole gateway: pages call its admin API in process (inject). */
  gateway: FastifyInstance;
  adminToken: string;
  apiKeys: ApiKeyAuthenticator;
  /** Shared with the admin API, which ends a revoked key's sessions. */
  sessions: SessionStore;
  /** Failed sign-ins count with the admin API's failed bearer tokens, per client address. */
  credentialFailures: CredentialFailureThrottle;
  /** How a person signed in through the identity provider calls the admin API in process. */
  passes: UserPasses;
  /** Sign-in through an OpenID Connect provider (OIDC_*), when configured. */
  oidc?: OidcSettings | undefined;
  /** PUBLIC_BASE_URL: the redirect URI the provider knows is under it. */
  publicBaseUrl?: string | undefined;
};

/** Pages anyone may load: the sign-in form, the identity provider's way in and back, and the static files. */
const isPublic = (url: string) =>
  url === "/dashboard/login" || OIDC_PUBLIC_PATHS.includes(url) || url.startsWith("/dashboard/assets/");

// Pages show secrets once and carry CSRF tokens: never kept by a cache.
const PAGE_HEADERS = { "cache-control": "no-store", ...DASHBOARD_SECURITY_HEADERS };

/** Same-origin POSTs only: a browser sends Origin on every POST; when present it must be this host. */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return origin === undefined || origin === `${request.protocol}://${request.host}`;
}

function tokensMatch(expected: string, presented: string | null): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(presented ?? "");
  return a.length === b.length && timingSafeEqual(a, b);
}

function errorPage(reply: FastifyReply, status: number, error: ApiError, request: FastifyRequest) {
  const session = sessionOf(request);
  return sendPage(
    reply,
    renderDocument(
      layout({
        title: "Something went wrong",
        session,
        children: html`<h1>${status === 404 ? "Not found" : "That did not work"}</h1>
          ${errorBlock(error)}
          <p><a href="/dashboard">Back to the dashboard</a></p>`,
      }),
    ),
    status,
  );
}

/**
 * The web dashboard under /dashboard: server-rendered pages (Preact + htm, escaped by the
 * renderer), htmx for live lists, a session cookie in front of the admin API (docs/dashboard.md).
 */
export async function dashboardRoutes(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  const store = options.sessions;
  const failures = options.credentialFailures;
  const authenticateActor = createActorAuthenticator(options.adminToken, options.apiKeys, options.passes);
  const gateway = options.gateway;
  const sso = options.oidc?.label;
  const login = (error?: string) => loginPage(error, sso);
  const toSignIn = (request: FastifyRequest, reply: FastifyReply) => {
    // htmx follows HX-Redirect instead of swapping the sign-in page into a live region.
    if (request.headers["hx-request"]) return reply.header("hx-redirect", "/dashboard/login").code(200).send();
    return seeOther(reply, "/dashboard/login");
  };

  // Not part of the API: kept out of /openapi.json.
  app.addHook("onRoute", (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 256 * 1024 },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
  // Before the hooks below, which read the cookies; after the onRoute hook, so its routes are hidden too.
  await app.register(fastifyCookie);
  const oidc: OidcSignIn | undefined =
    options.oidc &&
    oidcRoutes(app, {
      settings: options.oidc,
      store,
      findTeam: teamFinder(gateway, options.adminToken),
      publicBaseUrl: options.publicBaseUrl,
      log: app.log,
    });

  app.addHook("onRequest", async (request, reply) => {
    reply.headers(PAGE_HEADERS);
    if (isPublic(request.url.split("?", 1)[0] ?? "")) return;
    const stored = await store.get(sessionIdOf(request));
    // A person is asked of the identity provider again now and then: refused, they are signed out.
    const session = stored && oidc ? await oidc.recheck(stored) : stored;
    if (!session) {
      clearSessionCookie(request, reply);
      return toSignIn(request, reply);
    }
    // A person has no token: each request acts through the admin API with a pass naming them.
    setSession(
      request,
      session.actor.kind === "user" ? { ...session, token: options.passes.issue(session.actor) } : session,
    );
  });
  app.addHook("preHandler", async (request) => {
    if (request.method !== "POST") return;
    if (!sameOrigin(request)) throw new HttpError("cross_origin");
    if (isPublic(request.url)) return;
    const session = sessionOf(request);
    const form = request.body instanceof URLSearchParams ? request.body : undefined;
    if (!session || !tokensMatch(session.csrfToken, form?.get("_csrf") ?? null)) {
      throw new HttpError("csrf");
    }
    // A read key or a team viewer is offered no action but signing out; a POST it was not offered is
    // refused here, as the admin API would refuse the call behind it.
    if (!mayWrite(session.actor) && request.url !== "/dashboard/logout") throw errors.readOnlySession();
  });

  // A page that set or showed the one-time message: the session keeps that, on every replica.
  app.addHook("onSend", async (request, _reply, payload) => {
    const changed = changedSessionOf(request);
    // A person's pass is of this request only: never kept.
    if (changed) await store.save(changed.actor.kind === "user" ? { ...changed, token: "" } : changed);
    return payload;
  });

  app.setErrorHandler(async (error: Error, request, reply) => {
    if (error instanceof SignedOut) {
      await store.destroy(sessionIdOf(request));
      clearSessionCookie(request, reply);
      return toSignIn(request, reply);
    }
    const apiError = (error as { dashboardError?: ApiError }).dashboardError;
    if (apiError) return errorPage(reply, apiError.status, apiError, request);
    if (error instanceof HttpError) {
      return errorPage(reply, error.status, { status: error.status, error: error.message, code: error.code }, request);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return errorPage(reply, status, { status, error: error.message, code: "invalid_request" }, request);
    }
    request.log.error({ err: error }, "dashboard page failed");
    return errorPage(reply, 500, { status: 500, error: "The page could not be built.", code: "internal" }, request);
  });

  serveAssets(app);

  app.get("/dashboard", async (request, reply) => {
    const actor = sessionOf(request)?.actor;
    const team = actor && teamAccessOf(actor);
    if (team) return seeOther(reply, `/dashboard/teams/${encodeURIComponent(team.teamId)}/alerts`);
    return seeOther(reply, "/dashboard/teams");
  });

  app.get("/dashboard/login", async (request, reply) => {
    if (await store.get(sessionIdOf(request))) return seeOther(reply, "/dashboard");
    return sendPage(reply, login());
  });

  app.post("/dashboard/login", async (request, reply) => {
    // Before the token is looked at: an address that failed too often is told to wait, right or wrong.
    const blockedMs = await failures.blockedForMs(request.ip);
    if (blockedMs > 0) {
      const seconds = secondsUntil(blockedMs);
      reply.header("retry-after", String(seconds));
      return sendPage(reply, login(`Too many failed sign-ins from this address: try again in ${seconds} s.`), 429);
    }
    const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
    const token = (form.get("token") ?? "").trim();
    const actor = await authenticateActor(`Bearer ${token}`, "GET").catch((error: unknown) => {
      // Only a refused credential counts as a failure; auth being away is answered as what it is.
      if (error instanceof HttpError && error.code === "unauthorized") return undefined;
      throw toHttpError(error) ?? error;
    });
    // A pass is the dashboard's own, never typed in.
    if (!actor || token === "" || actor.kind === "user") {
      await failures.recordFailure(request.ip);
      return sendPage(reply, login("That is not a valid admin token or team API key."), 401);
    }
    if (secureFor(request) && request.protocol !== "https") {
      // The browser would drop the Secure cookie and loop back here: say why instead.
      return sendPage(
        reply,
        login(
          "Sign-in needs HTTPS away from localhost: serve the gateway behind TLS (with TRUST_PROXY), or open it as http://127.0.0.1 (an SSH tunnel will do).",
        ),
        400,
      );
    }
    await store.destroy(sessionIdOf(request));
    const session = await store.create(token, actor).catch((error: unknown) => {
      if (error instanceof SessionLimitReached) return undefined;
      throw error;
    });
    if (!session) {
      return sendPage(
        reply,
        login(
          "This gateway holds as many dashboard sessions as it may (it has no Redis): sign out elsewhere, or try again once idle sessions have ended.",
        ),
        503,
      );
    }
    setSessionCookie(request, reply, session.id);
    return seeOther(reply, "/dashboard");
  });

  app.post("/dashboard/logout", async (request, reply) => {
    await store.destroy(sessionIdOf(request));
    clearSessionCookie(request, reply);
    return seeOther(reply, "/dashboard/login");
  });

  const deps = { gateway, store };
  teamPages(app, deps);
  alertPages(app, deps);
  monitorPages(app, deps);
  webhookPages(app, deps);
  channelPages(app, deps);
  silencePages(app, deps);
  accessPages(app, deps);
}
