// A team's HMAC states (64 bytes: the inner and outer SHA-256 states), sealed in Pulsegate's one
// sealed format (@pulsegate/sealing, purpose HMAC_STATES) and bound to the team and the secret's
// fingerprint (sealingContext).
import { HMAC_STATES, type Keyring, openValue, resealValue, sealValue } from "@pulsegate/sealing";
import { HMAC_STATES_BYTES } from "./hmac-states.ts";

/** Seals inner||outer states (64 bytes) under the keyring's current KEK, bound to `aad`. */
export function sealStates(states: Uint8Array, keyring: Keyring, aad: string): Buffer {
  if (states.length !== HMAC_STATES_BYTES) {
    throw new RangeError(`HMAC states must be ${HMAC_STATES_BYTES} bytes, got ${states.length}`);
  }
  return sealValue(states, keyring, HMAC_STATES, aad);
}

/**
 * Opens sealed states back into raw inner||outer states (64 bytes). The caller owns the result
 * and must wipe it (fill(0)). Throws SealedValueError. Services should use openStates()
 * (verifier-key.ts), which never exposes them.
 */
export function unsealStates(sealed: Uint8Array, keyring: Keyring, aad: string): Buffer {
  return openValue(sealed, keyring, HMAC_STATES, aad, HMAC_STATES_BYTES);
}

/** Re-seals states under the keyring's current KEK (after a KEK rotation). */
export function resealStates(sealed: Uint8Array, keyring: Keyring, aad: string): Buffer {
  return resealValue(sealed, keyring, HMAC_STATES, aad, HMAC_STATES_BYTES);
}
