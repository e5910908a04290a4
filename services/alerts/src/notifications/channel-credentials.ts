import { type Keyring, openValue, resealValue, sealedValueKekId, sealValue } from "@pulsegate/sealing";

/**
 * What a channel holds that grants access to its destination: a Slack
 * incoming-webhook URL is a bearer credential, and so may be a webhook URL
 * with a token in it (later kinds add routing keys, SMTP passwords). Stored
 * only sealed (AES-256-GCM under a key derived from SECRET_KEK, bound to the
 * channel id), opened only by the dispatcher to send, shown only masked.
 */
export type ChannelCredentials = { url: string; key?: string };

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
    const plain = Buffer.from(
      JSON.stringify(
        credentials.key === undefined ? { url: credentials.url } : { url: credentials.url, key: credentials.key },
      ),
      "utf8",
    );
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
      const parsed = JSON.parse(plain.toString("utf8")) as { url?: unknown; key?: unknown };
      if (typeof parsed.url !== "string") throw new TypeError("sealed channel credentials without a url");
      return typeof parsed.key === "string" ? { url: parsed.url, key: parsed.key } : { url: parsed.url };
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
