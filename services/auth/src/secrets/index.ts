// Team webhook secrets (DESIGN §3): issue, seal, open, verify.

export { DEV_KEK_ID, KEK_ENV, KEK_PREVIOUS_ENV, type Kek, type Keyring, kekId, parseKeyring } from "@pulsegate/sealing";
export { fingerprintSecret, type GeneratedSecret, generateSecret, isSecretText } from "./generate-secret.ts";
export { graceEndsAt, graceSecondsOf, inGrace } from "./grace.ts";
export { deriveHmacStates, HMAC_STATES_BYTES, hmacFromStates, VerifierKey } from "./hmac-states.ts";
export { resealStates, sealStates } from "./seal.ts";
export { sealingContext } from "./sealing-context.ts";
export { parseSignatureHeader } from "./signature-header.ts";
export { anySignatureMatches, signatureMatches } from "./signature-matches.ts";
export { parseStandardSignatures, standardWebhooksSecret } from "./standard-webhooks-signature.ts";
export { openStates } from "./verifier-key.ts";
