// The KEK keyring is shared with alerts (channel credentials): packages/sealing.
export {
  DEV_KEK_ID,
  KEK_ENV,
  KEK_PREVIOUS_ENV,
  type Kek,
  type Keyring,
  kekId,
  parseKeyring,
} from "@pulsegate/sealing";
