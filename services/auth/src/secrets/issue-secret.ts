// Issue a new team secret: the text (returned once), its fingerprint, and the
// sealed HMAC states to store. The secret text itself is never stored.

import type { Keyring } from "@pulsegate/sealing";
import { generateSecret } from "./generate-secret.ts";
import { deriveHmacStates } from "./hmac-states.ts";
import { sealStates } from "./seal.ts";

export type IssuedSecret = {
  /** 64 lowercase hex chars: show to the team once; never store, log or return again. */
  readonly secret: string;
  /** hex(sha256(secret)): store for display/audit. */
  readonly fingerprint: string;
  /** Sealed inner/outer HMAC states: store. */
  readonly sealedStates: Buffer;
  /** KEK id the states were sealed with. */
  readonly kekId: string;
};

/**
 * `aad` binds the sealed states to their owner; it receives the new secret's
 * fingerprint, so the binding can include it (e.g. `team:${teamId}:${fp}`).
 */
export function issueSecret(keyring: Keyring, aad: (fingerprint: string) => string): IssuedSecret {
  const { secret, fingerprint } = generateSecret();
  const states = deriveHmacStates(secret);
  try {
    const sealedStates = sealStates(states, keyring, aad(fingerprint));
    return { secret, fingerprint, sealedStates, kekId: keyring.current.id };
  } finally {
    states.fill(0);
  }
}
