import { randomBytes } from "node:crypto";
import type { Actor } from "../admin/actor.ts";

/** A one-time message for the next page: a notice, or a secret shown once. */
export type Flash =
  | { kind: "notice"; text: string }
  | { kind: "error"; text: string }
  | { kind: "secret"; title: string; secret: string; note: string };

/** A signed-in dashboard user. The token stays on the server: the browser holds only the session id. */
export type Session = {
  id: string;
  /** The admin token or team API key the user signed in with; sent as the bearer of admin API calls. */
  token: string;
  actor: Actor;
  /** Sent back in every form (`_csrf`); checked on every POST. */
  csrfToken: string;
  /** Changed by a page, then written back with `save`. */
  flash?: Flash | undefined;
};

export type SessionStore = {
  /** A new session; throws SessionLimitReached when an in-process store is full. */
  create: (token: string, actor: Actor) => Promise<Session>;
  /** The live session with that id, its idle deadline pushed back; undefined when unknown or expired. */
  get: (id: string | undefined) => Promise<Session | undefined>;
  /** Writes a session's changed flash back; a session ended meanwhile stays ended. */
  save: (session: Session) => Promise<void>;
  destroy: (id: string | undefined) => Promise<void>;
  /** Ends every session of a principal at once (a revoked API key). */
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

/** Whose sessions a session counts among: the admin token is one principal, each API key another. */
export function principalOf(actor: Actor): string {
  return actor.kind === "admin" ? ADMIN_PRINCIPAL : keyPrincipal(actor.id);
}

/** Team the session counts against (its bound per team), if any: the admin token has none. */
export function teamOf(actor: Actor): string | undefined {
  return actor.kind === "api_key" ? actor.teamId : undefined;
}

/** A new session: a random id (the cookie, 256 bits) and a random CSRF token, never derived from the token. */
export function newSession(token: string, actor: Actor): Session {
  return {
    id: randomBytes(32).toString("base64url"),
    token,
    actor,
    csrfToken: randomBytes(32).toString("base64url"),
  };
}
