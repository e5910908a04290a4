import { CHANNEL_KINDS, type ChannelKind, isOneOf, type SignatureScheme } from "@pulsegate/contract/vocabulary";
import type { Channel } from "./channel.entity.ts";

/** Kinds whose credentials include a key besides the URL (a routing key, an API key). */
export const KEYED_KINDS: readonly ChannelKind[] = ["pagerduty", "opsgenie"];

export function isChannelKind(value: unknown): value is ChannelKind {
  return isOneOf(CHANNEL_KINDS, value);
}

/** A channel as the API shows it: the URL only masked. */
export type ChannelView = {
  id: string;
  teamId: string;
  kind: ChannelKind;
  name: string;
  maskedUrl: string;
  enabled: boolean;
  /** Why the delivery policy disabled the channel, and when; null once an admin enables it again. */
  disabledReason: string | null;
  disabledAt: Date | null;
  /** How a webhook channel signs (null for the other kinds), and a standard-webhooks channel's secret's dates. */
  signatureScheme: SignatureScheme | null;
  signingSecretRotatedAt: Date | null;
  previousSigningSecretValidUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * What the API shows of a channel: never its credentials, nor the delivery policy's counters. A
 * webhook channel without a scheme was written by a release before schemes (during a rolling
 * upgrade, after migration 0017 had backfilled the others): it signs as pulsegate, and says so.
 */
export function channelView(channel: Channel): ChannelView {
  const { credentialsSealed, failingSince, failedDeliveries, deletedAt, ...view } = channel;
  return {
    ...view,
    disabledReason: view.disabledReason ?? null,
    disabledAt: view.disabledAt ?? null,
    signatureScheme: view.kind === "webhook" ? (view.signatureScheme ?? "pulsegate") : null,
    signingSecretRotatedAt: view.signingSecretRotatedAt ?? null,
    previousSigningSecretValidUntil: view.previousSigningSecretValidUntil ?? null,
  };
}
