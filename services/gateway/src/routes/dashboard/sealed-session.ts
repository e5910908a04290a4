// A session as Redis holds it: found under a hash of its id, sealed (AES-256-GCM, packages/sealing)
// under a key derived from the id itself. The id exists only in the browser's cookie, so a dump of
// Redis (or of its backups) yields no admin token, API key, CSRF token or session id, and no
// gateway secret opens it either. Only the cookie does: it is the bearer credential it always was.
import { createHash, createSecretKey } from "node:crypto";
import { type Keyring, openValue, SealedValueError, sealValue } from "@pulsegate/sealing";
import type { Actor } from "../admin/actor.ts";
import type { Flash, ProviderGrant, Session } from "./session-store.ts";

/** 32 random bytes, base64url: what newSession makes. Anything else is no session, without asking Redis. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
const PURPOSE = "dashboard-session";
const LOOKUP_LABEL = "pulsegate/dashboard-session/lookup\0";

type SealedRecord = {
  token: string;
  actor: Actor;
  csrfToken: string;
  flash?: Flash | undefined;
  grant?: ProviderGrant | undefined;
};

/** Whether `id` has the shape of a session id. */
export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

/** Where a session is kept: a hash of its id (not the id), hex. */
export function sessionLookup(id: string): string {
  return createHash("sha256").update(LOOKUP_LABEL).update(id).digest("hex");
}

/** The id as the one key of a keyring: the sealing key is derived from it (HKDF, per purpose). */
function keyringOf(id: string): Keyring {
  const key = createSecretKey(Buffer.from(id, "base64url"));
  return { current: { id: "session-id", key }, byId: new Map([["session-id", key]]) };
}

export function sealSession(session: Session): Buffer {
  const record: SealedRecord = {
    token: session.token,
    actor: session.actor,
    csrfToken: session.csrfToken,
    flash: session.flash,
    grant: session.grant,
  };
  return sealValue(Buffer.from(JSON.stringify(record)), keyringOf(session.id), PURPOSE, sessionLookup(session.id));
}

/** The session sealed in `sealed`, or undefined when it does not open with this id (altered, or another's). */
export function openSession(id: string, sealed: Buffer): Session | undefined {
  let plain: Buffer;
  try {
    plain = openValue(sealed, keyringOf(id), PURPOSE, sessionLookup(id));
  } catch (error) {
    if (error instanceof SealedValueError) return undefined;
    throw error;
  }
  try {
    const record = JSON.parse(plain.toString("utf8")) as SealedRecord;
    const { token, actor, csrfToken, flash, grant } = record;
    return { id, token, actor, csrfToken, flash, ...(grant ? { grant } : {}) };
  } finally {
    plain.fill(0);
  }
}
