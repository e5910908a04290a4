import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { UserActor } from "../../admin/actor.ts";
import { publicBaseUrl } from "../../admin/public-base-url.ts";
import { sendPage } from "../context.ts";
import { html, renderDocument } from "../html.ts";
import { layout } from "../layout.ts";
import { loginPage } from "../pages/login-page.ts";
import { secureFor, sessionIdOf, setSessionCookie } from "../session-cookie.ts";
import { type Session, type SessionStore, userPrincipal } from "../session-store.ts";
import { createIdentityProvider, type Person } from "./identity-provider.ts";
import type { OidcSettings } from "./oidc-settings.ts";
import { createPendingCookie } from "./pending-sign-in.ts";
import { type FindTeam, roleFromGroups } from "./role-from-groups.ts";

export const OIDC_PUBLIC_PATHS = ["/dashboard/oidc/login", "/dashboard/oidc/callback"];

export type OidcSignIn = {
  /**
   * The session as the provider has the person now, asked again every OIDC_CHECK_SECONDS:
   * undefined (and every session of that person ended) once it refuses them or their groups no
   * longer grant anything. Other sessions are answered as they are.
   */
  recheck: (session: Session) => Promise<Session | undefined>;
};

/** Where the provider sends the browser back: registered with the provider as the redirect URI. */
const callbackUrlOf = (request: FastifyRequest, configured: string | undefined) =>
  `${publicBaseUrl(request, configured)}/dashboard/oidc/callback`;

/** A dashboard path to come back to after signing in; anything else is the dashboard's start. */
const returnPathOf = (value: unknown) =>
  typeof value === "string" && /^\/dashboard(\/[^/\\]|$)/.test(value) ? value : "/dashboard";

/** 200 with a refresh, not a redirect: the navigation came from the provider's site, and the SameSite=Strict session cookie would not come along a redirect from it. */
function continuePage(reply: FastifyReply, to: string) {
  return sendPage(
    reply,
    renderDocument(
      layout({
        title: "Signed in",
        head: html`<meta http-equiv="refresh" content=${`0;url=${to}`} />`,
        children: html`<p>Signed in. <a href=${to}>Continue to the dashboard</a>.</p>`,
      }),
    ),
  );
}

function refusedPage(reply: FastifyReply, person: Person, label: string) {
  const groups = person.groups.length > 0 ? person.groups.join(", ") : "none";
  return sendPage(
    reply,
    renderDocument(
      layout({
        title: "No access",
        children: html`<section class="login">
          <h1>No access to Pulsegate</h1>
          <p class="error" role="alert">
            The identity provider signed you in as ${person.name}${person.email ? ` (${person.email})` : ""}, but none of
            your groups (${groups}) gives access to Pulsegate.
          </p>
          <p>Ask whoever runs Pulsegate to add one of your groups to OIDC_GROUPS, or to add you to a group it names.</p>
          <p><a href="/dashboard/login">Back to sign-in</a> (${label})</p>
        </section>`,
      }),
    ),
    403,
  );
}

/**
 * Sign-in through an OpenID Connect provider (docs/sign-in.md): `/dashboard/oidc/login` sends
 * the browser to the provider; `/dashboard/oidc/callback` checks what comes back, maps the
 * person's groups to a role and opens the same kind of session as a token does, holding the
 * person and the provider's tokens (sealed).
 */
export function oidcRoutes(
  app: FastifyInstance,
  deps: {
    settings: OidcSettings;
    store: SessionStore;
    findTeam: FindTeam;
    publicBaseUrl: string | undefined;
    log: FastifyBaseLogger;
  },
): OidcSignIn {
  const { settings, store, findTeam } = deps;
  const provider = createIdentityProvider(settings);
  const pendingCookie = createPendingCookie(settings.clientSecret);
  const login = (error: string) => loginPage(error, settings.label);
  const userOf = async (person: Person): Promise<UserActor | undefined> => {
    const role = await roleFromGroups(settings.grants, person.groups, findTeam);
    return role && { kind: "user", subject: person.subject, name: person.name, email: person.email, role };
  };

  app.get<{ Querystring: { returnTo?: string } }>("/dashboard/oidc/login", async (request, reply) => {
    if (secureFor(request) && request.protocol !== "https") {
      return sendPage(
        reply,
        login("Sign-in needs HTTPS away from localhost: serve the gateway behind TLS (with TRUST_PROXY)."),
        400,
      );
    }
    const begun = await provider
      .begin(callbackUrlOf(request, deps.publicBaseUrl), returnPathOf(request.query.returnTo))
      .catch((error: unknown) => {
        request.log.warn({ err: error }, "identity provider unreachable");
        return undefined;
      });
    if (!begun)
      return sendPage(
        reply,
        login("The identity provider could not be reached: try again, or sign in with a token."),
        502,
      );
    pendingCookie.set(request, reply, begun.pending);
    return reply.code(303).header("location", begun.url.href).send();
  });

  app.get<{ Querystring: Record<string, string | undefined> }>("/dashboard/oidc/callback", async (request, reply) => {
    const pending = pendingCookie.take(request, reply);
    if (!pending)
      return sendPage(reply, login("That sign-in expired or was begun in another browser: sign in again."), 400);
    if (request.query.error !== undefined) {
      const why = request.query.error_description ?? request.query.error;
      return sendPage(reply, login(`The identity provider did not sign you in: ${why}`), 401);
    }
    const callbackUrl = new URL(callbackUrlOf(request, deps.publicBaseUrl));
    callbackUrl.search = request.url.split("?")[1] ?? "";
    const finished = await provider.finish(callbackUrl, pending).catch((error: unknown) => {
      request.log.warn({ err: error }, "sign-in through the identity provider failed");
      return undefined;
    });
    if (!finished)
      return sendPage(reply, login("The identity provider's answer could not be checked: sign in again."), 400);
    const user = await userOf(finished.person);
    if (!user) return refusedPage(reply, finished.person, settings.label);
    await store.destroy(sessionIdOf(request));
    const session = await store.create("", user, finished.grant);
    setSessionCookie(request, reply, session.id);
    request.log.info({ subject: user.subject }, "signed in through the identity provider");
    return continuePage(reply, pending.returnTo);
  });

  /** One check at a time per session in this process: a refresh token may be used only once. */
  const checking = new Map<string, Promise<Session | undefined>>();
  const check = async (session: Session, subject: string): Promise<Session | undefined> => {
    const grant = session.grant;
    if (!grant) return session;
    const result = await provider.check(subject, grant).catch((error: unknown) => {
      // The provider being away locks nobody out: the next check is one interval later.
      deps.log.warn({ err: error }, "identity provider unreachable: the session is checked again later");
      return undefined;
    });
    const user = result && !result.refused ? await userOf(result.person) : undefined;
    if (result && !user) {
      await store.destroyPrincipal(userPrincipal(subject));
      return undefined;
    }
    const renewed: Session = {
      ...session,
      actor: user ?? session.actor,
      grant: result && !result.refused ? result.grant : { ...grant, checkedAt: Date.now() },
    };
    await store.save(renewed);
    return renewed;
  };
  return {
    recheck: async (session) => {
      const actor = session.actor;
      const grant = session.grant;
      if (actor.kind !== "user" || !grant || Date.now() - grant.checkedAt < settings.checkSeconds * 1000)
        return session;
      let running = checking.get(session.id);
      if (!running) {
        running = check(session, actor.subject).finally(() => checking.delete(session.id));
        checking.set(session.id, running);
      }
      return running;
    },
  };
}
