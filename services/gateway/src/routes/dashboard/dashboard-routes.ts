import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../../errors.ts";
import { DASHBOARD_SECURITY_HEADERS } from "../../security-headers.ts";
import type { ApiKeyAuthenticator } from "../admin/api-key-authenticator.ts";
import { createActorResolver } from "../admin/resolve-actor.ts";
import { type ApiError, SignedOut } from "./admin-client.ts";
import { serveAssets } from "./assets.ts";
import { seeOther, sendPage, setSession } from "./context.ts";
import { html, renderDocument } from "./html.ts";
import { errorBlock, layout } from "./layout.ts";
import { accessPages } from "./pages/access-pages.ts";
import { alertPages } from "./pages/alert-pages.ts";
import { channelPages } from "./pages/channel-pages.ts";
import { loginPage } from "./pages/login-page.ts";
import { monitorPages } from "./pages/monitor-pages.ts";
import { teamPages } from "./pages/team-pages.ts";
import { webhookPages } from "./pages/webhook-pages.ts";
import { clearSessionCookie, secureFor, sessionIdOf, setSessionCookie } from "./session-cookie.ts";
import { createSessionStore, type SessionStore } from "./session-store.ts";

export type DashboardOptions = {
  /** The whole gateway: pages call its admin API in process (inject). */
  gateway: FastifyInstance;
  adminToken: string;
  apiKeys: ApiKeyAuthenticator;
  /** A session ends after this long without a request (default 12 h). */
  idleMs?: number | undefined;
};

/** Pages anyone may load: the sign-in form and the static files. */
const isPublic = (url: string) => url === "/dashboard/login" || url.startsWith("/dashboard/assets/");

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

function errorPage(reply: FastifyReply, status: number, error: ApiError, store: SessionStore, request: FastifyRequest) {
  const session = store.get(sessionIdOf(request));
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
  const store = createSessionStore({ idleMs: options.idleMs ?? 12 * 3_600_000 });
  const resolveActor = createActorResolver(options.adminToken, options.apiKeys);
  const gateway = options.gateway;

  // Not part of the API: kept out of /openapi.json.
  app.addHook("onRoute", (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 256 * 1024 },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );

  app.addHook("onRequest", async (request, reply) => {
    reply.headers(PAGE_HEADERS);
    if (isPublic(request.url.split("?", 1)[0] ?? "")) return;
    const session = store.get(sessionIdOf(request));
    if (!session) {
      // htmx follows HX-Redirect instead of swapping the sign-in page into a live region.
      if (request.headers["hx-request"]) return reply.header("hx-redirect", "/dashboard/login").code(200).send();
      return seeOther(reply, "/dashboard/login");
    }
    setSession(request, session);
  });
  app.addHook("preHandler", async (request) => {
    if (request.method !== "POST") return;
    if (!sameOrigin(request)) throw new HttpError("cross_origin");
    if (isPublic(request.url)) return;
    const session = store.get(sessionIdOf(request));
    const form = request.body instanceof URLSearchParams ? request.body : undefined;
    if (!session || !tokensMatch(session.csrfToken, form?.get("_csrf") ?? null)) {
      throw new HttpError("csrf");
    }
  });

  app.setErrorHandler(async (error: Error, request, reply) => {
    if (error instanceof SignedOut) {
      store.destroy(sessionIdOf(request));
      clearSessionCookie(request, reply);
      if (request.headers["hx-request"]) return reply.header("hx-redirect", "/dashboard/login").code(200).send();
      return seeOther(reply, "/dashboard/login");
    }
    const apiError = (error as { dashboardError?: ApiError }).dashboardError;
    if (apiError) return errorPage(reply, apiError.status, apiError, store, request);
    if (error instanceof HttpError) {
      return errorPage(
        reply,
        error.status,
        { status: error.status, error: error.message, code: error.code },
        store,
        request,
      );
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return errorPage(reply, status, { status, error: error.message, code: "invalid_request" }, store, request);
    }
    request.log.error({ err: error }, "dashboard page failed");
    return errorPage(
      reply,
      500,
      { status: 500, error: "The page could not be built.", code: "internal" },
      store,
      request,
    );
  });

  serveAssets(app);

  app.get("/dashboard", async (request, reply) => {
    const session = store.get(sessionIdOf(request));
    const actor = session?.actor;
    if (actor?.kind === "api_key")
      return seeOther(reply, `/dashboard/teams/${encodeURIComponent(actor.teamId)}/alerts`);
    return seeOther(reply, "/dashboard/teams");
  });

  app.get("/dashboard/login", async (request, reply) => {
    if (store.get(sessionIdOf(request))) return seeOther(reply, "/dashboard");
    return sendPage(reply, loginPage());
  });

  app.post("/dashboard/login", async (request, reply) => {
    const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
    const token = (form.get("token") ?? "").trim();
    const actor = await resolveActor(`Bearer ${token}`, "GET").catch(() => undefined);
    if (!actor || token === "") {
      return sendPage(reply, loginPage("That is not a valid admin token or team API key."), 401);
    }
    if (secureFor(request) && request.protocol !== "https") {
      // The browser would drop the Secure cookie and loop back here: say why instead.
      return sendPage(
        reply,
        loginPage(
          "Sign-in needs HTTPS away from localhost: serve the gateway behind TLS (with TRUST_PROXY), or open it as http://127.0.0.1 (an SSH tunnel will do).",
        ),
        400,
      );
    }
    store.destroy(sessionIdOf(request));
    const session = store.create(token, actor);
    setSessionCookie(request, reply, session.id);
    return seeOther(reply, "/dashboard");
  });

  app.post("/dashboard/logout", async (request, reply) => {
    store.destroy(sessionIdOf(request));
    clearSessionCookie(request, reply);
    return seeOther(reply, "/dashboard/login");
  });

  const deps = { gateway, store };
  teamPages(app, deps);
  alertPages(app, deps);
  monitorPages(app, deps);
  webhookPages(app, deps);
  channelPages(app, deps);
  accessPages(app, deps);
}

export type DashboardDeps = { gateway: FastifyInstance; store: SessionStore };
