// Open a sealed blob once into a reusable in-memory VerifierKey. Cache it per
// team briefly: verifying then costs no AES and no KEK lookup, and the raw
// states never leave this module (they are wiped right after loading).

import type { Keyring } from "@pulsegate/sealing";
import { VerifierKey } from "./hmac-states.ts";
import { unsealStates } from "./seal.ts";

/** Throws SealedValueError if the blob is malformed, tampered, bound to other `aad`, or its KEK is unknown. */
export function openStates(sealed: Uint8Array, keyring: Keyring, aad: string): VerifierKey {
  const states = unsealStates(sealed, keyring, aad);
  try {
    return VerifierKey.fromStates(states);
  } finally {
    states.fill(0);
  }
}
