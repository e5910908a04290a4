import type { DeliveryStatus } from "@pulsegate/contract/vocabulary";
import type { Orm } from "@pulsegate/db";
import { refusalOf, reportSetAside } from "@pulsegate/grpc";
import { type BackoffOptions, backoffDelay } from "@pulsegate/runtime/backoff";
import { type Periodic, periodic } from "@pulsegate/runtime/lifecycle";
import type { Logger } from "@pulsegate/runtime/logger";
import type { ChannelCredentials, ChannelSealer } from "../channels/channel-credentials.ts";
import { type ChannelHealthOptions, recordChannelHealth } from "../channels/channel-health.ts";
import {
  CHANNEL_DISABLED,
  type ChannelNoticeEvent,
  channelNoticeBody,
  channelNoticeSlackMessage,
} from "../messages/channel-notice.ts";
import { opsgenieRequest, pagerDutyBody } from "../messages/incident-tools.ts";
import { type NotificationEvent, webhookBody } from "../messages/notification-event.ts";
import { slackMessage } from "../messages/slack-message.ts";
import { standardWebhooksHeaders } from "../messages/standard-webhooks-signing.ts";
import { type AttemptOutcome, type ClaimedDelivery, eventIdOf } from "./delivery.ts";
import { verdictOf } from "./delivery-policy.ts";
import { DeliveryStore } from "./delivery-store.ts";
import { expandOutbox } from "./expand-outbox.ts";
import { type EmailSender, emailContent, mailRecipients } from "./send-email.ts";
import { describeSendError, type HttpSender } from "./send-http.ts";
import { traceDelivery } from "./trace-delivery.ts";

export const DELIVERY_HEADER = "x-pulsegate-delivery";
export const USER_AGENT = "Pulsegate-Notifier/1";

export type SignPayload = (teamId: string, payload: Buffer) => Promise<string>;

export type DispatcherOptions = {
  orm: Orm;
  log: Logger;
  sender: HttpSender;
  /** The SMTP relay of email channels (SMTP_URL); none: email deliveries fail with a reason. */
  email?: EmailSender | undefined;
  /** auth.Sign: lowercase hex HMAC-SHA256 under the team's current secret. */
  sign: SignPayload;
  /** Opens a channel's sealed credentials: the only place they are decrypted. */
  sealer: ChannelSealer;
  /** When the delivery policy disables a failing channel. */
  health: ChannelHealthOptions;
  maxAttempts: number;
  attemptTimeoutMs: number;
  pollMs: number;
  backoff: BackoffOptions;
  /** Attempts in flight at once, per replica. */
  concurrency: number;
  /**
   * How long a nudge waits before the next pass (20 ms), so the outbox rows of
   * many commits are expanded in one pass rather than a pass each.
   */
  settleMs?: number;
};

/** What sending needs of a delivery: a claimed one, or a test message (test-notification.ts). */
export type Sendable = Pick<
  ClaimedDelivery,
  | "id"
  | "outboxId"
  | "teamId"
  | "channelId"
  | "kind"
  | "credentialsSealed"
  | "signatureScheme"
  | "previousSigningSecretValidUntil"
  | "attempt"
  | "payload"
> & { eventType: string };

/** How one send went, in words safe to show (never the URL, a secret or the receiver's body). */
export type SendOutcome = { statusCode: number | null; verdict: ReturnType<typeof verdictOf> | null; error: string };

/** Outbox events expanded per pass. */
const EXPAND_BATCH = 100;

/** An attempt that could not be made for a reason of ours; its message is safe to store. */
class OwnSideError extends Error {
  override name = "OwnSideError";
}

/**
 * Delivers notifications from the transactional outbox, at least once.
 * Each pass expands new outbox events into deliveries (one per routed
 * channel), then leases due deliveries and attempts them. State lives in
 * PostgreSQL: a restart loses nothing, and replicas share the work without
 * sending one delivery twice at the same time (SKIP LOCKED plus a lease that
 * outlasts any attempt). No transaction is open during an attempt.
 */
export class Dispatcher {
  readonly #options: DispatcherOptions;
  readonly #store: DeliveryStore;
  readonly #inflight = new Set<Promise<void>>();
  readonly #loop: Periodic;

  constructor(options: DispatcherOptions) {
    this.#options = options;
    this.#store = new DeliveryStore(options.orm);
    this.#loop = periodic({
      name: "notification dispatch",
      log: options.log,
      intervalMs: options.pollMs,
      firstRunDelayMs: 0,
      settleMs: options.settleMs ?? 20,
      // A failed pass (the database away) waits pollMs, doubling up to 10 s while it keeps failing.
      maxFailureDelayMs: 10_000,
      task: () => this.#pass(),
    });
  }

  /** Longer than the longest attempt (signing and sending are each bounded by the attempt timeout). */
  get leaseMs(): number {
    return 2 * this.#options.attemptTimeoutMs + 5_000;
  }

  /** The first pass at once, then one every pollMs (or sooner: a full pass, a nudge). */
  start(): void {
    this.#loop.start();
  }

  /**
   * Work may be waiting (an outbox row was committed, an attempt ended): look
   * shortly (settleMs) instead of at the next poll.
   */
  nudge(): void {
    this.#loop.kick();
  }

  /** Stops taking work and waits for attempts under way (each is bounded by its timeouts). */
  async stop(): Promise<void> {
    await this.#loop.stop();
    await Promise.allSettled(this.#inflight);
  }

  /** One pass; true when it may have left work behind and a slot is free: the next goes straight on. */
  async #pass(): Promise<boolean> {
    const { log, concurrency, orm, maxAttempts } = this.#options;
    const expanded = await expandOutbox(orm, { batchSize: EXPAND_BATCH, maxAttempts, log });
    const room = concurrency - this.#inflight.size;
    const claimed = await this.#store.claim(room, this.leaseMs);
    for (const delivery of claimed) this.#track(traceDelivery(delivery, () => this.#attempt(delivery)));
    const progressed = expanded === EXPAND_BATCH || (claimed.length > 0 && claimed.length === room);
    return progressed && this.#inflight.size < concurrency;
  }

  #track(attempt: Promise<void>): void {
    this.#inflight.add(attempt);
    void attempt.finally(() => {
      this.#inflight.delete(attempt);
      // A later event of the same alert may be due now; a slot is free anyway.
      this.nudge();
    });
  }

  /**
   * Sends one message as a delivery's attempt is sent (same request, signature and sender), with no
   * delivery behind it: nothing recorded, no retry. For test messages.
   */
  async send(message: Sendable): Promise<SendOutcome> {
    const { sender, attemptTimeoutMs } = this.#options;
    try {
      const { body, headers, url } = await this.#request(message);
      const answer =
        message.kind === "email" ? await this.#email(message, url, headers) : await sender.post(url, body, headers);
      const verdict = verdictOf(answer.statusCode);
      return {
        statusCode: answer.statusCode,
        verdict,
        error: verdict === "delivered" ? "" : `HTTP ${answer.statusCode}`,
      };
    } catch (error) {
      const reason = error instanceof OwnSideError ? error.message : describeSendError(error, attemptTimeoutMs);
      return { statusCode: null, verdict: null, error: reason };
    }
  }

  async #attempt(delivery: ClaimedDelivery): Promise<void> {
    const { log, sender, backoff, attemptTimeoutMs } = this.#options;
    let outcome: AttemptOutcome;
    let gone = false;
    try {
      const { body, headers, url } = await this.#request(delivery);
      const answer =
        delivery.kind === "email" ? await this.#email(delivery, url, headers) : await sender.post(url, body, headers);
      const verdict = verdictOf(answer.statusCode);
      gone = verdict === "gone";
      outcome =
        verdict === "delivered"
          ? { ok: true, statusCode: answer.statusCode }
          : {
              ok: false,
              statusCode: answer.statusCode,
              error: `HTTP ${answer.statusCode}`,
              retryInMs: backoffDelay(delivery.attempt, backoff, answer.retryAfterMs),
              final: verdict !== "retry",
            };
    } catch (error) {
      outcome = {
        ok: false,
        statusCode: null,
        error: error instanceof OwnSideError ? error.message : describeSendError(error, attemptTimeoutMs),
        retryInMs: backoffDelay(delivery.attempt, backoff),
      };
    }
    // Never the URL, the body or the signature: ids and outcome only.
    const fields = {
      deliveryId: delivery.id,
      alertId: delivery.alertId,
      channelId: delivery.channelId,
      event: delivery.eventType,
      attempt: delivery.attempt,
      statusCode: outcome.statusCode,
    };
    let status: DeliveryStatus | null;
    try {
      status = await this.#store.complete(delivery, outcome);
      if (outcome.ok) log.info(fields, "notification delivered");
      else if (status === "failed") log.warn({ ...fields, error: outcome.error }, "notification failed for good");
      else log.info({ ...fields, error: outcome.error, retryInMs: outcome.retryInMs }, "notification attempt failed");
    } catch (error) {
      const setAside = await this.#setAside(delivery, fields, error);
      if (setAside === undefined) return;
      status = setAside;
    }
    if (status === null) return; // another replica took over, or the channel went meanwhile
    try {
      const disabled = await recordChannelHealth(
        this.#options.orm,
        delivery.channelId,
        outcome.ok ? { delivered: true } : { delivered: false, status, gone },
        this.#options.health,
      );
      if (disabled) {
        log.warn({ channelId: delivery.channelId, reason: disabled }, "notification channel disabled");
        this.nudge(); // its notice to the team's other channels
      }
    } catch (error) {
      log.error({ channelId: delivery.channelId, err: error }, "could not record a channel's delivery health");
    }
  }

  /**
   * The attempt's outcome could not be recorded. PostgreSQL refusing it (refusalOf) will refuse it
   * every time: the delivery is failed with the reason instead, counted and logged once. Anything
   * else lets the lease run out and the delivery be attempted again: at least once. Returns the
   * delivery's new status, or undefined when nothing more is to be done.
   */
  async #setAside(
    delivery: ClaimedDelivery,
    fields: Record<string, string | number | null>,
    error: unknown,
  ): Promise<DeliveryStatus | null | undefined> {
    const { log } = this.#options;
    const refusal = refusalOf(error);
    if (refusal === undefined) {
      log.error({ ...fields, err: error }, "could not record a notification attempt");
      return undefined;
    }
    try {
      const status = await this.#store.setAside(delivery, refusal);
      if (status !== null) reportSetAside(log, "deliveries", fields, refusal);
      return status;
    } catch (setAsideError) {
      log.error({ ...fields, err: setAsideError }, "could not record a notification attempt");
      return undefined;
    }
  }

  /** An email channel's attempt: the event as a message for people, through the service's relay. */
  async #email(delivery: Sendable, url: string, headers: Record<string, string>) {
    const email = this.#options.email;
    if (!email) throw new OwnSideError("no SMTP relay is configured (SMTP_URL)");
    const to = mailRecipients(url);
    if (!to) throw new OwnSideError("the channel's url is not a mailto: list");
    const notice = delivery.eventType === CHANNEL_DISABLED ? (delivery.payload as ChannelNoticeEvent) : null;
    const content = notice
      ? {
          subject: "A Pulsegate notification channel was disabled",
          text: `${JSON.stringify(notice.channel, null, 2)}\n`,
        }
      : emailContent(delivery.payload as NotificationEvent);
    const { [DELIVERY_HEADER]: deliveryId, ...rest } = headers;
    return email.send({
      to,
      subject: content.subject,
      text: content.text,
      headers: { "X-Pulsegate-Delivery": deliveryId ?? delivery.id, ...pick(rest) },
    });
  }

  /** The channel's URL (and key), opened from its sealed credentials for this attempt only. */
  #credentials(delivery: Sendable): ChannelCredentials {
    try {
      return this.#options.sealer.open(delivery.channelId, delivery.credentialsSealed);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new OwnSideError(
        `could not open the channel's sealed credentials (${typeof code === "string" ? code : "error"}: is its KEK in SECRET_KEK?)`,
      );
    }
  }

  async #request(delivery: Sendable): Promise<{ body: Buffer; headers: Record<string, string>; url: string }> {
    const credentials = this.#credentials(delivery);
    const eventId = eventIdOf(delivery.outboxId);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      [DELIVERY_HEADER]: delivery.id,
      "x-pulsegate-event": delivery.eventType,
      "x-pulsegate-event-id": eventId,
      "x-pulsegate-attempt": String(delivery.attempt),
    };
    const notice = delivery.eventType === CHANNEL_DISABLED ? (delivery.payload as ChannelNoticeEvent) : null;
    if (delivery.kind === "email") return { body: Buffer.alloc(0), headers, url: credentials.url };
    if (delivery.kind === "slack") {
      const message = notice ? channelNoticeSlackMessage(notice) : slackMessage(delivery.payload as NotificationEvent);
      return { body: Buffer.from(JSON.stringify(message)), headers, url: credentials.url };
    }
    // Incident tools get alert events (a channel notice is for people: it goes to the others).
    if (delivery.kind === "pagerduty" && !notice) {
      const body = pagerDutyBody(delivery.payload as NotificationEvent, credentials.key ?? "");
      return { body, headers, url: credentials.url };
    }
    if (delivery.kind === "opsgenie" && !notice) {
      const request = opsgenieRequest(delivery.payload as NotificationEvent, credentials.url, credentials.key ?? "");
      return { body: request.body, headers: { ...headers, ...request.headers }, url: request.url };
    }
    const body = notice
      ? channelNoticeBody(eventId, notice)
      : webhookBody(eventId, delivery.payload as NotificationEvent);
    if (delivery.signatureScheme === "standard-webhooks") {
      return {
        body,
        headers: { ...headers, ...this.#standardWebhooks(delivery, credentials, body) },
        url: credentials.url,
      };
    }
    try {
      // The interface's scheme (the body), and beside it a timestamped one for receivers that
      // refuse replays: HMAC of "<X-Webhook-Timestamp>.<body>" with the same secret.
      const timestamp = String(Math.floor(Date.now() / 1000));
      const [signature, timestamped] = await Promise.all([
        this.#options.sign(delivery.teamId, body),
        this.#options.sign(delivery.teamId, Buffer.concat([Buffer.from(`${timestamp}.`), body])),
      ]);
      headers["x-webhook-signature"] = signature;
      headers["x-webhook-timestamp"] = timestamp;
      headers["x-webhook-timestamp-signature"] = timestamped;
      return { body, headers, url: credentials.url };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new OwnSideError(
        `could not sign the payload (auth${typeof code === "number" ? ` gRPC status ${code}` : ""})`,
      );
    }
  }

  /**
   * A standard-webhooks channel signs with its own secret, not the team's: webhook-id is the
   * delivery's id (the same on every attempt), and while a rotated-out secret is in its grace
   * window it signs too, so a receiver holding either one verifies.
   */
  #standardWebhooks(delivery: Sendable, credentials: ChannelCredentials, body: Buffer) {
    if (!credentials.signingSecret) throw new OwnSideError("the channel's sealed credentials hold no signing secret");
    const secrets = [credentials.signingSecret];
    const until = delivery.previousSigningSecretValidUntil;
    if (credentials.previousSigningSecret && until !== null && until.getTime() > Date.now()) {
      secrets.push(credentials.previousSigningSecret);
    }
    return standardWebhooksHeaders(secrets, delivery.id, body);
  }
}

/** The X-Pulsegate-* headers of a delivery, as mail headers. */
function pick(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => name.startsWith("x-pulsegate-"))
      .map(([name, value]) => [
        name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase()),
        value,
      ]),
  );
}
