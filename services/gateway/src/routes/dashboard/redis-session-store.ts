import { DASHBOARD_SESSION_LIMITS } from "@pulsegate/contract/limits";
import type { Redis } from "ioredis";
import { isSessionId, openSession, sealSession, sessionLookup } from "./sealed-session.ts";
import { newSession, principalOf, type SessionStore, teamOf } from "./session-store.ts";

/**
 * A new session, and the bounds, in one step. KEYS: the session, the use counter, the principal's
 * set, and the team's set for a team key. ARGV: the sealed record, idle ms, the session's member
 * (its lookup hash), the prefix of session keys, the principal's bound, the team's bound.
 * The sets rank their sessions by last use (a counter shared by every replica, so no clock
 * matters); over a bound, members whose session is gone (signed out, idle, dropped by the other
 * bound) are cleared first, then that set's least recently used are deleted. Returns how many.
 */
const CREATE = `
local idle = ARGV[2]
local member = ARGV[3]
local prefix = ARGV[4]
redis.call('SET', KEYS[1], ARGV[1], 'PX', idle)
local used = redis.call('INCR', KEYS[2])
local dropped = 0
for i = 3, #KEYS do
  local set = KEYS[i]
  local bound = tonumber(ARGV[2 + i])
  redis.call('ZADD', set, used, member)
  redis.call('PEXPIRE', set, idle)
  if redis.call('ZCARD', set) > bound then
    for _, other in ipairs(redis.call('ZRANGE', set, 0, -1)) do
      if redis.call('EXISTS', prefix .. other) == 0 then redis.call('ZREM', set, other) end
    end
    local over = redis.call('ZCARD', set) - bound
    if over > 0 then
      for _, other in ipairs(redis.call('ZRANGE', set, 0, over - 1)) do
        redis.call('DEL', prefix .. other)
        redis.call('ZREM', set, other)
        dropped = dropped + 1
      end
    end
  end
end
return dropped
`;

/** A use: the idle time starts again, and the session becomes its sets' most recently used. KEYS as CREATE's first two, then the sets; ARGV idle ms, member. */
const TOUCH = `
if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 0 then return 0 end
local used = redis.call('INCR', KEYS[2])
for i = 3, #KEYS do
  redis.call('ZADD', KEYS[i], 'XX', used, ARGV[2])
  redis.call('PEXPIRE', KEYS[i], ARGV[1])
end
return 1
`;

/** Every session of a principal: KEYS[1] its set; ARGV[1] the prefix of session keys. */
const DESTROY_PRINCIPAL = `
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, member in ipairs(members) do redis.call('DEL', ARGV[1] .. member) end
redis.call('DEL', KEYS[1])
return #members
`;

type WithCommands = Redis & {
  pulsegateSessionCreate: (keyCount: number, ...keysAndArgs: (string | number | Buffer)[]) => Promise<number>;
  pulsegateSessionTouch: (keyCount: number, ...keysAndArgs: (string | number)[]) => Promise<number>;
  pulsegateSessionDestroyPrincipal: (principalSet: string, sessionPrefix: string) => Promise<number>;
};

export type RedisSessionLimits = { perPrincipal: number; perTeam: number };

/**
 * Sessions in Redis, shared by every gateway replica: a record per session under a hash of its
 * id, sealed under a key derived from the id (sealed-session.ts), expiring after `idleMs` without
 * use (Redis's TTL); sets per principal and per team bound them (DASHBOARD_SESSION_LIMITS). All
 * keys carry one hash tag, so the scripts touch a single slot.
 */
export function createRedisSessionStore(options: {
  redis: Redis;
  keyPrefix: string;
  idleMs: number;
  limits?: RedisSessionLimits;
}): SessionStore {
  const { idleMs, limits = DASHBOARD_SESSION_LIMITS } = options;
  const redis = options.redis as WithCommands;
  redis.defineCommand("pulsegateSessionCreate", { lua: CREATE });
  redis.defineCommand("pulsegateSessionTouch", { lua: TOUCH });
  redis.defineCommand("pulsegateSessionDestroyPrincipal", { lua: DESTROY_PRINCIPAL, numberOfKeys: 1 });

  const base = `${options.keyPrefix}:{dashboard-sessions}`;
  const sessionPrefix = `${base}:session:`;
  const uses = `${base}:uses`;
  const principalSet = (principal: string) => `${base}:principal:${principal}`;
  const setsOf = (session: { actor: Parameters<typeof principalOf>[0] }) => {
    const teamId = teamOf(session.actor);
    const principal = principalSet(principalOf(session.actor));
    return teamId === undefined ? [principal] : [principal, `${base}:team:${teamId}`];
  };

  return {
    create: async (token, actor, grant) => {
      const session = newSession(token, actor, grant);
      const member = sessionLookup(session.id);
      const sets = setsOf(session);
      await redis.pulsegateSessionCreate(
        2 + sets.length,
        sessionPrefix + member,
        uses,
        ...sets,
        sealSession(session),
        idleMs,
        member,
        sessionPrefix,
        limits.perPrincipal,
        limits.perTeam,
      );
      return session;
    },
    get: async (id) => {
      if (id === undefined || !isSessionId(id)) return undefined;
      const member = sessionLookup(id);
      const sealed = await redis.getBuffer(sessionPrefix + member);
      if (!sealed) return undefined;
      const session = openSession(id, sealed);
      if (!session) return undefined;
      const sets = setsOf(session);
      const live = await redis.pulsegateSessionTouch(
        2 + sets.length,
        sessionPrefix + member,
        uses,
        ...sets,
        idleMs,
        member,
      );
      return live === 1 ? session : undefined;
    },
    save: async (session) => {
      // XX: a session ended meanwhile (signed out on another replica) is not brought back.
      await redis.set(sessionPrefix + sessionLookup(session.id), sealSession(session), "KEEPTTL", "XX");
    },
    destroy: async (id) => {
      if (id !== undefined && isSessionId(id)) await redis.del(sessionPrefix + sessionLookup(id));
    },
    destroyPrincipal: async (principal) => {
      await redis.pulsegateSessionDestroyPrincipal(principalSet(principal), sessionPrefix);
    },
  };
}
