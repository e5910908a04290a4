import { DASHBOARD_SESSION_LIMITS } from "@pulsegate/contract/limits";
import {
  newSession,
  principalOf,
  type Session,
  SessionLimitReached,
  type SessionStore,
  teamOf,
} from "./session-store.ts";

type Entry = { session: Session; lastUsedAt: number; groups: string[]; isKey: boolean };

export type MemorySessionLimits = { perPrincipal: number; perTeam: number; max: number };

const DEFAULT_LIMITS: MemorySessionLimits = {
  perPrincipal: DASHBOARD_SESSION_LIMITS.perPrincipal,
  perTeam: DASHBOARD_SESSION_LIMITS.perTeam,
  max: DASHBOARD_SESSION_LIMITS.inProcessMax,
};

/**
 * Sessions in this process (no Redis, or Redis unreachable), with the bounds the Redis store has:
 * per principal and per team, each dropping only the least recently used of whoever went over.
 * Memory needs a bound on the whole as well; a full store refuses a team key (or a person) that
 * has no session to give up instead of evicting anyone, and the admin token's sessions are not
 * counted in it, so the admin can always sign in. A restart signs everyone out.
 */
export function createMemorySessionStore(options: { idleMs: number; limits?: MemorySessionLimits }): SessionStore {
  const { idleMs, limits = DEFAULT_LIMITS } = options;
  // Both kept least recently used first: a use moves an id to the end.
  const entries = new Map<string, Entry>();
  const groups = new Map<string, Set<string>>();
  let keySessions = 0;

  const remove = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    if (entry.isKey) keySessions--;
    for (const group of entry.groups) {
      const ids = groups.get(group);
      ids?.delete(id);
      if (ids?.size === 0) groups.delete(group);
    }
  };
  const touch = (id: string, entry: Entry) => {
    entry.lastUsedAt = Date.now();
    entries.delete(id);
    entries.set(id, entry);
    for (const group of entry.groups) {
      const ids = groups.get(group);
      ids?.delete(id);
      ids?.add(id);
    }
  };
  const expired = (entry: Entry) => entry.lastUsedAt + idleMs <= Date.now();
  const dropExpired = () => {
    for (const [id, entry] of entries) {
      if (!expired(entry)) break;
      remove(id);
    }
  };
  const oldestOf = (group: string): string | undefined => groups.get(group)?.values().next().value;
  const trim = (group: string, bound: number) => {
    while ((groups.get(group)?.size ?? 0) > bound) {
      const oldest = oldestOf(group);
      if (oldest === undefined) return;
      remove(oldest);
    }
  };

  return {
    create: async (token, actor, grant) => {
      dropExpired();
      const principal = `principal:${principalOf(actor)}`;
      const teamId = teamOf(actor);
      const team = teamId === undefined ? undefined : `team:${teamId}`;
      const isKey = actor.kind !== "admin";
      if (isKey && keySessions >= limits.max) {
        const own = oldestOf(principal);
        if (own === undefined) throw new SessionLimitReached("this gateway holds as many dashboard sessions as it may");
        remove(own);
      }
      const session = newSession(token, actor, grant);
      const entryGroups = team === undefined ? [principal] : [principal, team];
      entries.set(session.id, { session, lastUsedAt: Date.now(), groups: entryGroups, isKey });
      if (isKey) keySessions++;
      for (const group of entryGroups) {
        let ids = groups.get(group);
        if (!ids) {
          ids = new Set();
          groups.set(group, ids);
        }
        ids.add(session.id);
      }
      trim(principal, limits.perPrincipal);
      if (team !== undefined) trim(team, limits.perTeam);
      return { ...session };
    },
    get: async (id) => {
      if (id === undefined) return undefined;
      const entry = entries.get(id);
      if (!entry) return undefined;
      if (expired(entry)) {
        remove(id);
        return undefined;
      }
      touch(id, entry);
      // A copy, as from Redis: a change is kept only through save.
      return { ...entry.session };
    },
    save: async (session) => {
      const entry = entries.get(session.id);
      if (entry) entry.session = { ...entry.session, flash: session.flash, grant: session.grant };
    },
    destroy: async (id) => {
      if (id !== undefined) remove(id);
    },
    destroyPrincipal: async (principal) => {
      for (const id of [...(groups.get(`principal:${principal}`) ?? [])]) remove(id);
    },
  };
}
