import type { ChannelKind, DeliveryEvent, DeliveryStatus, SignatureScheme } from "@pulsegate/contract/vocabulary";

/** A delivery this replica holds the lease of, with what an attempt needs. */
export type ClaimedDelivery = {
  id: string;
  leaseToken: string;
  outboxId: string;
  teamId: string;
  /** Null for a channel notice (channel.disabled), which belongs to no alert. */
  alertId: string | null;
  channelId: string;
  kind: ChannelKind;
  /** The channel's credentials, sealed (channel-credentials.ts): the dispatcher opens them to send. */
  credentialsSealed: Buffer;
  /** How a webhook channel signs (null for other kinds); a standard-webhooks one's previous secret signs until this. */
  signatureScheme: SignatureScheme | null;
  previousSigningSecretValidUntil: Date | null;
  eventType: DeliveryEvent;
  /** This attempt's number, from 1. */
  attempt: number;
  maxAttempts: number;
  /** The W3C traceparent its outbox event keeps: the attempt continues that trace. */
  traceparent?: string | null;
  /** The outbox event as stored: an alert event, or a channel notice. */
  payload: { type: string; occurredAt: string; alert?: Record<string, unknown>; channel?: Record<string, unknown> };
};

export type AttemptOutcome =
  | { ok: true; statusCode: number }
  | {
      ok: false;
      statusCode: number | null;
      error: string;
      retryInMs: number;
      /** Fail the delivery now (a 4xx other than 408, 425, 429), whatever attempts are left. */
      final?: boolean;
    };

export type DeliveryView = {
  id: string;
  teamId: string;
  alertId: string | null;
  channelId: string;
  channelKind: ChannelKind;
  channelName: string;
  eventType: DeliveryEvent;
  eventId: string;
  status: DeliveryStatus;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
};

/** The id receivers see for an event, the same for every channel it goes to. */
export const eventIdOf = (outboxId: string) => `evt_${outboxId}`;
