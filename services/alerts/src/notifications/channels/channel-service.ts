import { randomUUID } from "node:crypto";
import type { FieldProblem } from "@pulsegate/contract/errors";
import { CHANNEL_LIMITS } from "@pulsegate/contract/limits";
import { nameProblem } from "@pulsegate/contract/text";
import type { ChannelKind, SignatureScheme } from "@pulsegate/contract/vocabulary";
import { type EntityManager, LockMode, type Orm, onUniqueViolation } from "@pulsegate/db";
import { alertsErrors } from "../../errors.ts";
import { checkSignatureScheme } from "../../webhooks/webhook-settings.ts";
import { cancelPendingDeliveries } from "../deliveries/cancel-pending-deliveries.ts";
import { mailRecipients } from "../deliveries/send-email.ts";
import { newSigningSecret } from "../messages/standard-webhooks-signing.ts";
import { type Channel, ChannelSchema } from "./channel.entity.ts";
import { type ChannelView, channelView, isChannelKind, KEYED_KINDS } from "./channel.ts";
import type { ChannelCredentials, ChannelSealer } from "./channel-credentials.ts";
import { checkChannelUrl } from "./channel-url.ts";
import { maskUrl } from "./mask-url.ts";

export type CreateChannelInput = {
  kind: string | undefined;
  name: string;
  url: string;
  enabled: boolean | undefined;
  /** pagerduty's routing key, opsgenie's API key; none for slack and webhook. */
  key?: string | undefined;
  /** Webhook channels only: "pulsegate" (the default) or "standard-webhooks" (a signing secret of its own). */
  signatureScheme?: string | undefined;
};

/** A created channel, and a standard-webhooks channel's signing secret: shown this once. */
export type CreatedChannel = { channel: ChannelView; signingSecret: string | null };

/** A standard-webhooks channel's new signing secret (shown once), and until when the previous one still signs (null: not at all). */
export type RotatedSigningSecret = { channel: ChannelView; signingSecret: string; previousValidUntil: Date | null };
export type UpdateChannelInput = {
  name: string | undefined;
  url: string | undefined;
  enabled: boolean | undefined;
  key?: string | undefined;
};

/** A team's live channels have unique names (docs/decisions.md, "Names"); the loser of a race is a conflict. */
const nameTaken = onUniqueViolation("channels_team_name_key", () => alertsErrors.nameTaken("channel"));

/** A team's notification channels. Deleting keeps the row (deliveries refer to it) but hides it. */
export class ChannelService {
  readonly #orm: Orm;
  readonly #allowPrivateNetworks: boolean;
  readonly #sealer: ChannelSealer;
  readonly #now: () => Date;

  readonly #emailEnabled: boolean;

  constructor(
    orm: Orm,
    options: { allowPrivateNetworks: boolean; sealer: ChannelSealer; now?: () => Date; emailEnabled?: boolean },
  ) {
    this.#emailEnabled = options.emailEnabled ?? false;
    this.#orm = orm;
    this.#allowPrivateNetworks = options.allowPrivateNetworks;
    this.#sealer = options.sealer;
    this.#now = options.now ?? (() => new Date());
  }

  async create(teamId: string, input: CreateChannelInput): Promise<CreatedChannel> {
    const errors: FieldProblem[] = [];
    if (!teamId) errors.push({ field: "teamId", message: "teamId is required." });
    if (!isChannelKind(input.kind)) {
      errors.push({ field: "kind", message: "kind must be slack, webhook, pagerduty, opsgenie or email." });
    }
    const key = checkKey(input.kind, input.key ?? "", errors);
    const scheme = checkScheme(input.kind, input.signatureScheme, errors);
    const name = checkName(input.name, errors);
    if (input.kind === "email" && !this.#emailEnabled) {
      errors.push({ field: "kind", message: "email channels need an SMTP relay: set SMTP_URL on the alerts service." });
    }
    const url = await this.#checkUrl(input.url, errors, input.kind === "email");
    if (errors.length > 0 || name === undefined || url === undefined) throw alertsErrors.invalid(errors);
    const now = this.#now();
    const created = this.#orm.em.fork().transactional(async (em) => {
      // Serialises creations per team so the limit holds under concurrency.
      await em.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [`alerts:channels:${teamId}`]);
      if ((await em.count(ChannelSchema, { teamId, deletedAt: null })) >= CHANNEL_LIMITS.maxPerTeam) {
        throw alertsErrors.tooManyChannels(CHANNEL_LIMITS.maxPerTeam);
      }
      const id = `ch_${randomUUID().replaceAll("-", "")}`;
      const signingSecret = scheme === "standard-webhooks" ? newSigningSecret() : null;
      const credentials: ChannelCredentials = { url };
      if (key !== undefined) credentials.key = key;
      if (signingSecret !== null) credentials.signingSecret = signingSecret;
      const channel = em.create(ChannelSchema, {
        id,
        teamId,
        kind: input.kind as ChannelKind,
        name,
        credentialsSealed: this.#sealer.seal(id, credentials),
        maskedUrl: maskChannelUrl(url),
        enabled: input.enabled ?? true,
        disabledReason: null,
        disabledAt: null,
        failingSince: null,
        failedDeliveries: 0,
        signatureScheme: scheme,
        signingSecretRotatedAt: signingSecret === null ? null : now,
        previousSigningSecretValidUntil: null,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      return { channel: channelView(channel), signingSecret };
    });
    return created.catch(nameTaken);
  }

  /**
   * Issues a standard-webhooks channel a new signing secret. The one it replaces keeps signing
   * beside it (a second webhook-signature entry) for `graceSeconds`, so the receiver can switch
   * without losing a delivery; a secret rotated out before is dropped at once, and 0 drops the
   * current one at once too.
   */
  async rotateSigningSecret(id: string, graceSeconds: number | undefined): Promise<RotatedSigningSecret> {
    const grace = graceSeconds ?? CHANNEL_LIMITS.defaultSigningGraceSeconds;
    if (!Number.isInteger(grace) || grace < 0 || grace > CHANNEL_LIMITS.maxSigningGraceSeconds) {
      throw alertsErrors.invalid([
        {
          field: "graceSeconds",
          message: `graceSeconds must be a whole number from 0 to ${CHANNEL_LIMITS.maxSigningGraceSeconds}.`,
        },
      ]);
    }
    return this.#orm.em.fork().transactional(async (em) => {
      const now = this.#now();
      const channel = await lockChannel(em, id);
      if (channel.signatureScheme !== "standard-webhooks") throw alertsErrors.noSigningSecret();
      const old = this.#sealer.open(id, Buffer.from(channel.credentialsSealed));
      const signingSecret = newSigningSecret();
      const previousValidUntil = grace > 0 && old.signingSecret ? new Date(now.getTime() + grace * 1000) : null;
      const { previousSigningSecret: _dropped, ...kept } = old;
      const credentials: ChannelCredentials = { ...kept, signingSecret };
      if (previousValidUntil !== null) credentials.previousSigningSecret = old.signingSecret;
      channel.credentialsSealed = this.#sealer.seal(id, credentials);
      channel.signingSecretRotatedAt = now;
      channel.previousSigningSecretValidUntil = previousValidUntil;
      channel.updatedAt = now;
      return { channel: channelView(channel), signingSecret, previousValidUntil };
    });
  }

  /**
   * The credentials an update writes (null: unchanged). The URL and the key are
   * sealed together, so changing one keeps the other: the old ones are opened.
   */
  #newCredentials(channel: Channel, url: string | undefined, key: string | undefined): ChannelCredentials | null {
    if (url === undefined && key === undefined) return null;
    const errors: FieldProblem[] = [];
    if (url !== undefined && (channel.kind === "email") !== url.startsWith("mailto:")) {
      errors.push({ field: "url", message: "An email channel's url is mailto:, any other channel's http or https." });
    }
    const checkedKey = key === undefined ? undefined : checkKey(channel.kind, key, errors);
    if (errors.length > 0) throw alertsErrors.invalid(errors);
    // The URL, the key and a standard-webhooks channel's signing secrets are sealed together: what
    // is not changed is kept.
    const old = this.#sealer.open(channel.id, Buffer.from(channel.credentialsSealed));
    const merged: ChannelCredentials = { ...old, url: url ?? old.url };
    if (checkedKey !== undefined) merged.key = checkedKey;
    return merged;
  }

  async list(teamId: string): Promise<ChannelView[]> {
    const channels = await this.#em().find(
      ChannelSchema,
      { teamId, deletedAt: null },
      { orderBy: { createdAt: "asc", id: "asc" } },
    );
    return channels.map(channelView);
  }

  /** A channel that has not been deleted. */
  async get(id: string): Promise<ChannelView> {
    const channel = await this.#em().findOne(ChannelSchema, { id, deletedAt: null });
    if (!channel) throw alertsErrors.channelNotFound();
    return channelView(channel);
  }

  async update(id: string, input: UpdateChannelInput): Promise<ChannelView> {
    const errors: FieldProblem[] = [];
    const name = input.name === undefined ? undefined : checkName(input.name, errors);
    const email = input.url?.trim().toLowerCase().startsWith("mailto:") ?? false;
    const url = input.url === undefined ? undefined : await this.#checkUrl(input.url, errors, email);
    if (errors.length > 0) throw alertsErrors.invalid(errors);
    const updated = this.#orm.em.fork().transactional(async (em) => {
      const now = this.#now();
      const channel = await lockChannel(em, id);
      const credentials = this.#newCredentials(channel, url, input.key);
      if (name !== undefined) channel.name = name;
      if (credentials !== null) channel.credentialsSealed = this.#sealer.seal(id, credentials);
      if (url !== undefined) channel.maskedUrl = maskChannelUrl(url);
      if (input.enabled !== undefined) channel.enabled = input.enabled;
      // Enabling again is the admin's answer to a channel the delivery policy disabled: the
      // reason goes, and its run of failures starts over.
      if (input.enabled === true) {
        channel.disabledReason = null;
        channel.disabledAt = null;
        channel.failingSince = null;
        channel.failedDeliveries = 0;
      }
      channel.updatedAt = now;
      if (!channel.enabled) await cancelPendingDeliveries(em, id, "channel disabled", now);
      return channelView(channel);
    });
    return updated.catch(nameTaken);
  }

  /** Hides the channel and cancels its pending deliveries (an attempt under way still finishes). */
  async delete(id: string): Promise<void> {
    await this.#orm.em.fork().transactional(async (em) => {
      const now = this.#now();
      const channel = await lockChannel(em, id);
      channel.deletedAt = now;
      channel.updatedAt = now;
      await cancelPendingDeliveries(em, id, "channel deleted", now);
    });
  }

  /** A channel that has not been deleted, as stored (its sealed credentials included): for a test message. */
  async stored(id: string): Promise<Channel> {
    const channel = await this.#em().findOne(ChannelSchema, { id, deletedAt: null });
    if (!channel) throw alertsErrors.channelNotFound();
    return channel;
  }

  /** Ids of the team's channels that exist (enabled or not). */
  async idsOf(teamId: string): Promise<Set<string>> {
    const channels = await this.#em().find(ChannelSchema, { teamId, deletedAt: null }, { fields: ["id"] });
    return new Set(channels.map((channel) => channel.id));
  }

  /** An email channel's URL is `mailto:` and its recipients (the relay is the service's own). */
  async #checkUrl(raw: string, errors: FieldProblem[], email = false): Promise<string | undefined> {
    if (email) {
      const recipients = mailRecipients(raw.trim());
      if (recipients) return `mailto:${recipients.join(",")}`;
      errors.push({ field: "url", message: "url must be mailto: with 1 to 10 comma-separated email addresses." });
      return undefined;
    }
    const checked = await checkChannelUrl(raw, { allowPrivateNetworks: this.#allowPrivateNetworks });
    if ("error" in checked) {
      errors.push(checked.error);
      return undefined;
    }
    return checked.url;
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}

/** A channel that has not been deleted, locked for the rest of the transaction. */
async function lockChannel(em: EntityManager, id: string): Promise<Channel> {
  const channel = await em.findOne(ChannelSchema, { id, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!channel) throw alertsErrors.channelNotFound();
  return channel;
}

function checkName(raw: string, errors: FieldProblem[]): string | undefined {
  const name = raw.trim();
  const problem = nameProblem(name, CHANNEL_LIMITS.nameMaxLength);
  if (!problem) return name;
  errors.push(problem);
  return undefined;
}

/** A key for the kinds that need one (1 to CHANNEL_LIMITS.keyMaxLength printable characters), none for the others. */
function checkKey(kind: string | undefined, raw: string, errors: FieldProblem[]): string | undefined {
  const keyed = (KEYED_KINDS as readonly string[]).includes(kind ?? "");
  const key = raw.trim();
  if (!keyed) {
    if (key !== "") errors.push({ field: "key", message: "key applies to pagerduty and opsgenie channels only." });
    return undefined;
  }
  if (key === "") errors.push({ field: "key", message: `key is required for a ${kind} channel.` });
  else if (key.length > CHANNEL_LIMITS.keyMaxLength || !/^[\x21-\x7e]+$/.test(key)) {
    errors.push({
      field: "key",
      message: `key must be 1 to ${CHANNEL_LIMITS.keyMaxLength} printable ASCII characters without spaces.`,
    });
  } else return key;
  return undefined;
}

/**
 * A webhook channel's signature scheme ("pulsegate" unless asked), refused for the other kinds,
 * which sign nothing of their own (null).
 */
function checkScheme(
  kind: string | undefined,
  raw: string | undefined,
  errors: FieldProblem[],
): SignatureScheme | null {
  if (kind !== "webhook") {
    if (raw !== undefined)
      errors.push({ field: "signatureScheme", message: "signatureScheme applies to webhook channels only." });
    return null;
  }
  if (raw === undefined) return "pulsegate";
  const checked = checkSignatureScheme(raw);
  if ("problem" in checked) {
    errors.push(checked.problem);
    return null;
  }
  return checked.scheme;
}

/** mask-url.ts for web URLs; for mailto: the first recipient's first letter and domain, and how many more. */
function maskChannelUrl(url: string): string {
  const recipients = mailRecipients(url);
  if (!recipients) return maskUrl(url);
  const [first = ""] = recipients;
  const at = first.lastIndexOf("@");
  const more = recipients.length > 1 ? ` (+${recipients.length - 1})` : "";
  return `mailto:${first.slice(0, 1)}…${first.slice(at)}${more}`;
}
