import { createHash } from "node:crypto";
import { auth } from "@pulsegate/proto";
import { LRUCache } from "lru-cache";

/** Bodies above this are not worth hashing for the cache (pings and most triggers are far smaller). */
const CACHEABLE_BODY_BYTES = 64 * 1024;
/**
 * Verdicts kept at most. Most trigger bodies are seen once and never again, so at a steady rate the
 * cache is full of those; a repeated body (an empty-body ping) is asked for often and stays, the
 * least recently used going first.
 */
const VERIFIED_MAX_ENTRIES = 20_000;

/**
 * Auth's "valid" for a (team, signature, body) reused for a few seconds: an
 * identical empty-body ping (its signature never changes) stops costing an
 * RPC. Only the verdict and the team's access are kept, never key material;
 * only valid verdicts are kept (a stranger's bad signatures cannot fill it).
 * A team's verdicts go when it changes (here or, announced, on another
 * replica: team-changes.ts); `ttlMs` bounds them if an announcement is lost.
 */
export function createVerifiedCache(ttlMs: number, now?: () => number) {
  const entries = new LRUCache<string, auth.VerifySignatureResult>({
    max: VERIFIED_MAX_ENTRIES,
    ttl: Math.max(1, ttlMs),
    // A clock of its own (a test's) is read at every check, not once a millisecond.
    ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
  });
  // Counts forgets: a verdict asked for before one and answered after it may predate the change.
  let forgets = 0;
  return {
    /** Taken before asking auth, and given back to `set` with the answer. */
    version: (): number => forgets,
    keyOf: (item: auth.VerifySignatureItem): string | null => {
      if (ttlMs <= 0 || item.payload.length > CACHEABLE_BODY_BYTES) return null;
      // A Standard Webhooks message signs its own id and timestamp, so it is never sent the same
      // twice; and its base64 signatures are case-sensitive, unlike the hex the key folds.
      if (item.format === auth.SignatureFormat.SIGNATURE_FORMAT_STANDARD_WEBHOOKS) return null;
      const body = item.payload.length === 0 ? "" : createHash("sha256").update(item.payload).digest("base64url");
      return `${item.teamId}\u0000${item.signature.toLowerCase()}\u0000${body}`;
    },
    get: (key: string): auth.VerifySignatureResult | undefined => entries.get(key),
    forgetTeam: (teamId: string) => {
      forgets++;
      const prefix = `${teamId}\u0000`;
      const gone = [...entries.keys()].filter((key) => key.startsWith(prefix));
      for (const key of gone) entries.delete(key);
    },
    forgetAll: () => {
      forgets++;
      entries.clear();
    },
    /** Keeps a valid verdict, unless something was forgotten since `version` (then it may be stale). */
    set: (key: string, result: auth.VerifySignatureResult, version: number) => {
      const valid =
        result.outcome === auth.VerifyOutcome.VERIFY_OUTCOME_VALID_CURRENT ||
        result.outcome === auth.VerifyOutcome.VERIFY_OUTCOME_VALID_PREVIOUS;
      if (valid && version === forgets) entries.set(key, result);
    },
    /** Verdicts held (expired ones included until they are asked for or pushed out). */
    size: (): number => entries.size,
  };
}
