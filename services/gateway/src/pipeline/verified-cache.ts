import { createHash } from "node:crypto";
import { auth } from "@pulsegate/proto";

/** Bodies above this are not worth hashing for the cache (pings and most triggers are far smaller). */
const CACHEABLE_BODY_BYTES = 64 * 1024;
const VERIFIED_MAX_ENTRIES = 100_000;

/**
 * Auth's "valid" for a (team, signature, body) reused for a few seconds: an
 * identical empty-body ping (its signature never changes) stops costing an
 * RPC. Only the verdict and the team's access are kept, never key material;
 * only valid verdicts are kept (a stranger's bad signatures cannot fill it).
 * A team's verdicts go when it changes (here or, announced, on another
 * replica: team-changes.ts); `ttlMs` bounds them if an announcement is lost.
 */
export function createVerifiedCache(ttlMs: number, now: () => number = Date.now) {
  const entries = new Map<string, { result: auth.VerifySignatureResult; expiresAt: number }>();
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
    get: (key: string): auth.VerifySignatureResult | undefined => {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt > now()) return entry.result;
      entries.delete(key);
      return undefined;
    },
    forgetTeam: (teamId: string) => {
      forgets++;
      const prefix = `${teamId}\u0000`;
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
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
      if (!valid || version !== forgets) return;
      const time = now();
      // Oldest first: re-set keys move to the end, so the Map's order is expiry order. Expired verdicts
      // go here too, not only when their key is asked for again: each new trigger body brings a key that
      // is never asked for again, and without this the Map filled to its cap at any steady rate.
      entries.delete(key);
      for (const [oldest, entry] of entries) {
        if (entries.size < VERIFIED_MAX_ENTRIES && entry.expiresAt > time) break;
        entries.delete(oldest);
      }
      entries.set(key, { result, expiresAt: time + ttlMs });
    },
    /** Verdicts held (expired ones included until the next `set`). */
    size: (): number => entries.size,
  };
}
