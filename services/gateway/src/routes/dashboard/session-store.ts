import { randomBytes } from "node:crypto";
import type { Actor } from "../admin/actor.ts";

/** A one-time message for the next page: a notice, or a secret shown once. */
export type Flash =
  | { kind: "notice"; text: string }
  | { kind: "error"; text: string }
  | { kind: "secret"; title: string; secret: string; note: string };

/** A signed-in dashboard user. The token stays in this process: the browser holds only the session id. */
export type Session = {
  id: string;
  /** The admin token or team API key the user signed in with; sent as the bearer of admin API calls. */
  token: string;
  actor: Actor;
  /** Sent back in every form (`_csrf`); checked on every POST. */
  csrfToken: string;
  expiresAt: number;
  flash?: Flash | undefined;
};

export type SessionStore = {
  create: (token: string, actor: Actor) => Session;
  /** The live session with that id, its idle deadline pushed back; undefined when unknown or expired. */
  get: (id: string | undefined) => Session | undefined;
  destroy: (id: string | undefined) => void;
};

/**
 * Sessions in memory, with an idle timeout and a bound on their number (the oldest goes first).
 * A restart signs everyone out, and each gateway replica has its own sessions (docs/dashboard.md).
 */
export function createSessionStore(options: { idleMs: number; maxSessions?: number }): SessionStore {
  const { idleMs, maxSessions = 10_000 } = options;
  const sessions = new Map<string, Session>();
  return {
    create: (token, actor) => {
      if (sessions.size >= maxSessions) {
        const oldest = sessions.keys().next().value;
        if (oldest !== undefined) sessions.delete(oldest);
      }
      const session: Session = {
        id: randomBytes(32).toString("base64url"),
        token,
        actor,
        csrfToken: randomBytes(32).toString("base64url"),
        expiresAt: Date.now() + idleMs,
      };
      sessions.set(session.id, session);
      return session;
    },
    get: (id) => {
      if (id === undefined) return undefined;
      const session = sessions.get(id);
      if (!session) return undefined;
      if (session.expiresAt <= Date.now()) {
        sessions.delete(id);
        return undefined;
      }
      session.expiresAt = Date.now() + idleMs;
      // Most recently used last, so the bound drops the least recently used.
      sessions.delete(id);
      sessions.set(id, session);
      return session;
    },
    destroy: (id) => {
      if (id !== undefined) sessions.delete(id);
    },
  };
}
