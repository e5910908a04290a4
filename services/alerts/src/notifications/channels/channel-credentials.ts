import { type Keyring, openValue, resealValue, sealedValueKekId, sealValue } from "@pulsegate/sealing";

/**
 * What a channel holds that grants access to its destination: a Slack
 * incoming-webhook URL is a bearer credential, and so may be a webhook URL
 * with a token in it (later kinds add routing keys, SMTP passwords). Stored
 * only sealed (AES-256-GCM under a key derived from SECRET_KEK, bound to the
 * channel id), opened only by the dispatcher to send, shown only masked.
 */
export type ChannelCredentials = {
  url: string;
  key?: string;
  /** A standard-webhooks channel's whsec_ signing secret, and the one before it (standard-webhooks-signing.ts). */
  signingSecret?: string;
  previousSigningSecret?: string;
};

const FIELDS = ["url", "key", "signingSecret", "previousSigningSecret"] as const;

export const CHANNEL_CREDENTIALS_PURPOSE = "channel-credentials";

export class ChannelSealer {
  readonly #keyring: Keyring;

  constructor(keyring: Keyring) {
    this.#keyring = keyring;
  }

  get currentKekId(): string {
    return this.#keyring.current.id;
  }

  seal(channelId: string, credentials: ChannelCredentials): Buffer {
    // Only the fields set, in a fixed order: what is sealed is exactly what the channel holds.
    const present = Object.fromEntries(
      FIELDS.flatMap((field) => (credentials[field] === undefined ? [] : [[field, credentials[field]]])),
    );
    const plain = Buffer.from(JSON.stringify(present), "utf8");
    try {
      return sealValue(plain, this.#keyring, CHANNEL_CREDENTIALS_PURPOSE, channelId);
    } finally {
      plain.fill(0);
    }
  }

  /** Throws SealedValueError (unknown KEK, tampered, or another channel's value). */
  open(channelId: string, sealed: Uint8Array): ChannelCredentials {
    const plain = openValue(sealed, this.#keyring, CHANNEL_CREDENTIALS_PURPOSE, channelId);
    try {
      const parsed = JSON.parse(plain.toString("utf8")) as Record<string, unknown>;
      if (typeof parsed.url !== "string") throw new TypeError("sealed channel credentials without a url");
      const credentials: ChannelCredentials = { url: parsed.url };
      for (const field of FIELDS) {
        const value = parsed[field];
        if (field !== "url" && typeof value === "string") credentials[field] = value;
      }
      return credentials;
    } finally {
      plain.fill(0);
    }
  }

  /** The value under the current KEK, or null when it already is. */
  resealIfOld(channelId: string, sealed: Uint8Array): Buffer | null {
    if (sealedValueKekId(sealed) === this.#keyring.current.id) return null;
    return resealValue(sealed, this.#keyring, CHANNEL_CREDENTIALS_PURPOSE, channelId);
  }
}
