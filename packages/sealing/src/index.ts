// Secrets at rest: the KEK keyring (SECRET_KEK) and sealed values (AES-256-GCM, docs/secrets.md).
export {
  DEV_KEK_ID,
  KEK_ENV,
  KEK_PREVIOUS_ENV,
  type Kek,
  type Keyring,
  kekId,
  parseKeyring,
} from "./keyring.ts";
export { type ResealCounts, type ResealPages, resealInPages } from "./reseal-in-pages.ts";
export {
  HMAC_STATES,
  openValue,
  resealValue,
  SealedValueError,
  sealedValueKekId,
  sealValue,
} from "./seal-value.ts";
