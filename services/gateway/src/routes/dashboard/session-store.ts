import { randomBytes } from "node:crypto";
import { type Actor, teamAccessOf } from "../admin/actor.ts";

/** A one-time message for the next page: a notice, or a secret shown once. */
export type Flash =
  | { kind: "notice"; text: string }
  | { kind: "error"; text: string }
  | { kind: "secret"; title: string; secret: string; note: string };

/**
 * What a session signed in through the identity provider keeps to ask it again (OIDC_CHECK_SECONDS):
 * its tokens (sealed with the session, never sent to the browser) and when it last asked.
 */
export type ProviderGrant = { accessToken: string; refreshToken?: string | undefined; checkedAt: number };

/** A signed-in dashboard user. The token stays on the server: the browser holds only the session id. */
export type Session = {
  id: string;
  /**
   * The admin token or team API key the user signed in with; sent as the bearer of admin API calls.
   * A person signed in through the identity provider has none: each request gets a pass instead.
   */
  token: string;
  actor: Actor;
  /** Sent back in every form (`_csrf`); checked on every POST. */
  csrfToken: string;
  /** Changed by a page, then written back with `save`. */
  flash?: Flash | undefined;
  /** Signed in through the identity provider: renewed by its checks, then written back with `save`. */
  grant?: ProviderGrant | undefined;
};

export type SessionStore = {
  /** A new session; throws SessionLimitReached when an in-process store is full. */
  create: (token: string, actor: Actor, grant?: ProviderGrant) => Promise<Session>;
  /** The live session with that id, its idle deadline pushed back; undefined when unknown or expired. */
  get: (id: string | undefined) => Promise<Session | undefined>;
  /** Writes a session's changed flash and grant back; a session ended meanwhile stays ended. */
  save: (session: Session) => Promise<void>;
  destroy: (id: string | undefined) => Promise<void>;
  /** Ends every session of a principal at once (a revoked API key, a person refused by the provider). */
  destroyPrincipal: (principal: string) => Promise<void>;
};

/** The in-process store holds as many sessions as it may, and this principal has none to give up. */
export class SessionLimitReached extends Error {
  override name = "SessionLimitReached";
}

/** A session ends after this long without a request. */
export const SESSION_IDLE_MS = 12 * 3_600_000;

export const ADMIN_PRINCIPAL = "admin";

export const keyPrincipal = (apiKeyId: string) => `key:${apiKeyId}`;

export const userPrincipal = (subject: string) => `user:${subject}`;

/** Whose sessions a session counts among: the admin token is one principal, each API key and each person another. */
export function principalOf(actor: Actor): string {
  if (actor.kind === "admin") return ADMIN_PRINCIPAL;
  return actor.kind === "api_key" ? keyPrincipal(actor.id) : userPrincipal(actor.subject);
}

/** Team the session counts against (its bound per team), if any: the admin token and admins have none. */
export function teamOf(actor: Actor): string | undefined {
  return teamAccessOf(actor)?.teamId;
}

/** A new session: a random id (the cookie, 256 bits) and a random CSRF token, never derived from the token. */
export function newSession(token: string, actor: Actor, grant?: ProviderGrant): Session {
  return {
    id: randomBytes(32).toString("base64url"),
    token,
    actor,
    csrfToken: randomBytes(32).toString("base64url"),
    ...(grant ? { grant } : {}),
  };
}
