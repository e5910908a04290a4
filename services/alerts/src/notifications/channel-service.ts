import { randomUUID } from "node:crypto";
import type { EntityManager, Orm } from "@pulsegate/db";
import type { FieldProblem } from "@pulsegate/errors";
import { alertsErrors } from "../errors.ts";
import {
  CHANNEL_COLUMNS,
  type ChannelKind,
  type ChannelRow,
  type ChannelView,
  channelFromRow,
  isChannelKind,
  KEYED_KINDS,
} from "./channel.ts";
import type { ChannelSealer } from "./channel-credentials.ts";
import { checkChannelUrl } from "./channel-url.ts";
import { maskUrl } from "./mask-url.ts";
import { mailRecipients } from "./send-email.ts";

export const CHANNEL_LIMITS = { nameMaxLength: 200, maxPerTeam: 50 } as const;

export type CreateChannelInput = {
  kind: string | undefined;
  name: string;
  url: string;
  enabled: boolean | undefined;
  /** pagerduty's routing key, opsgenie's API key; none for slack and webhook. */
  key?: string | undefined;
};
export type UpdateChannelInput = {
  name: string | undefined;
  url: string | undefined;
  enabled: boolean | undefined;
  key?: string | undefined;
};

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

  async create(teamId: string, input: CreateChannelInput): Promise<ChannelView> {
    const errors: FieldProblem[] = [];
    if (!teamId) errors.push({ field: "teamId", message: "teamId is required." });
    if (!isChannelKind(input.kind)) {
      errors.push({ field: "kind", message: "kind must be slack, webhook, pagerduty, opsgenie or email." });
    }
    const key = checkKey(input.kind, input.key ?? "", errors);
    const name = checkName(input.name, errors);
    if (input.kind === "email" && !this.#emailEnabled) {
      errors.push({ field: "kind", message: "email channels need an SMTP relay: set SMTP_URL on the alerts service." });
    }
    const url = await this.#checkUrl(input.url, errors, input.kind === "email");
    if (errors.length > 0 || name === undefined || url === undefined) throw alertsErrors.invalid(errors);
    const now = this.#now();
    return this.#orm.em.fork().transactional(async (em) => {
      // Serialises creations per team so the limit holds under concurrency.
      await em.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [`alerts:channels:${teamId}`]);
      const [count] = await em.execute<{ n: number }[]>(
        "SELECT count(*)::int AS n FROM alerts.channels WHERE team_id = ? AND deleted_at IS NULL",
        [teamId],
      );
      if ((count?.n ?? 0) >= CHANNEL_LIMITS.maxPerTeam) throw alertsErrors.tooManyChannels(CHANNEL_LIMITS.maxPerTeam);
      const id = `ch_${randomUUID().replaceAll("-", "")}`;
      const [row] = await em.execute<ChannelRow[]>(
        `INSERT INTO alerts.channels (id, team_id, kind, name, credentials_sealed, masked_url, enabled, created_at,
                                      updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${CHANNEL_COLUMNS}`,
        [
          id,
          teamId,
          input.kind as ChannelKind,
          name,
          this.#sealer.seal(id, key === undefined ? { url } : { url, key }),
          maskChannelUrl(url),
          input.enabled ?? true,
          now,
          now,
        ],
      );
      return channelFromRow(row as ChannelRow);
    });
  }

  /**
   * The credentials an update writes (null: unchanged). The URL and the key are
   * sealed together, so changing one keeps the other: the old ones are opened.
   */
  async #newCredentials(
    em: EntityManager,
    id: string,
    url: string | undefined,
    key: string | undefined,
  ): Promise<{ url: string; key?: string } | null> {
    if (url === undefined && key === undefined) return null;
    const [row] = await em.execute<{ kind: string; credentials_sealed: Buffer }[]>(
      "SELECT kind, credentials_sealed FROM alerts.channels WHERE id = ? AND deleted_at IS NULL FOR UPDATE",
      [id],
    );
    if (!row) throw alertsErrors.channelNotFound();
    const errors: FieldProblem[] = [];
    if (url !== undefined && (row.kind === "email") !== url.startsWith("mailto:")) {
      errors.push({ field: "url", message: "An email channel's url is mailto:, any other channel's http or https." });
    }
    const checkedKey = key === undefined ? undefined : checkKey(row.kind, key, errors);
    if (errors.length > 0) throw alertsErrors.invalid(errors);
    const old = this.#sealer.open(id, row.credentials_sealed);
    const merged = { url: url ?? old.url, key: checkedKey ?? old.key };
    return merged.key === undefined ? { url: merged.url } : { url: merged.url, key: merged.key };
  }

  async list(teamId: string): Promise<ChannelView[]> {
    const rows = await this.#em().execute<ChannelRow[]>(
      `SELECT ${CHANNEL_COLUMNS} FROM alerts.channels WHERE team_id = ? AND deleted_at IS NULL ORDER BY created_at, id`,
      [teamId],
    );
    return rows.map(channelFromRow);
  }

  /** A channel that has not been deleted. */
  async get(id: string): Promise<ChannelView> {
    const [row] = await this.#em().execute<ChannelRow[]>(
      `SELECT ${CHANNEL_COLUMNS} FROM alerts.channels WHERE id = ? AND deleted_at IS NULL`,
      [id],
    );
    if (!row) throw alertsErrors.channelNotFound();
    return channelFromRow(row);
  }

  async update(id: string, input: UpdateChannelInput): Promise<ChannelView> {
    const errors: FieldProblem[] = [];
    const name = input.name === undefined ? undefined : checkName(input.name, errors);
    const email = input.url?.trim().toLowerCase().startsWith("mailto:") ?? false;
    const url = input.url === undefined ? undefined : await this.#checkUrl(input.url, errors, email);
    if (errors.length > 0) throw alertsErrors.invalid(errors);
    return this.#orm.em.fork().transactional(async (em) => {
      const now = this.#now();
      const credentials = await this.#newCredentials(em, id, url, input.key);
      // Enabling again is the admin's answer to a channel the delivery policy disabled: the
      // reason goes, and its run of failures starts over.
      const [row] = await em.execute<ChannelRow[]>(
        `UPDATE alerts.channels
            SET name = coalesce(?, name), credentials_sealed = coalesce(?, credentials_sealed),
                masked_url = coalesce(?, masked_url), enabled = coalesce(?, enabled),
                disabled_reason = CASE WHEN ? THEN NULL ELSE disabled_reason END,
                disabled_at = CASE WHEN ? THEN NULL ELSE disabled_at END,
                failing_since = CASE WHEN ? THEN NULL ELSE failing_since END,
                failed_deliveries = CASE WHEN ? THEN 0 ELSE failed_deliveries END,
                updated_at = ?
          WHERE id = ? AND deleted_at IS NULL RETURNING ${CHANNEL_COLUMNS}`,
        [
          name ?? null,
          credentials === null ? null : this.#sealer.seal(id, credentials),
          url === undefined ? null : maskChannelUrl(url),
          input.enabled ?? null,
          input.enabled === true,
          input.enabled === true,
          input.enabled === true,
          input.enabled === true,
          now,
          id,
        ],
      );
      if (!row) throw alertsErrors.channelNotFound();
      if (!row.enabled) await cancelPending(em, id, "channel disabled", now);
      return channelFromRow(row);
    });
  }

  /** Hides the channel and cancels its pending deliveries (an attempt under way still finishes). */
  async delete(id: string): Promise<void> {
    await this.#orm.em.fork().transactional(async (em) => {
      const now = this.#now();
      const deleted = await em.execute<{ id: string }[]>(
        "UPDATE alerts.channels SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL RETURNING id",
        [now, now, id],
      );
      if (deleted.length === 0) throw alertsErrors.channelNotFound();
      await cancelPending(em, id, "channel deleted", now);
    });
  }

  /** Ids of the team's channels that exist (enabled or not). */
  async idsOf(teamId: string): Promise<Set<string>> {
    const rows = await this.#em().execute<{ id: string }[]>(
      "SELECT id FROM alerts.channels WHERE team_id = ? AND deleted_at IS NULL",
      [teamId],
    );
    return new Set(rows.map((row) => row.id));
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

/** A disabled or deleted channel gets nothing more, not even what was queued for it. */
async function cancelPending(em: EntityManager, channelId: string, reason: string, now: Date): Promise<void> {
  await em.execute(
    `UPDATE alerts.deliveries SET status = 'cancelled', last_error = ?, locked_until = NULL, lease_token = NULL,
            updated_at = ?
      WHERE channel_id = ? AND status = 'pending'`,
    [reason, now, channelId],
  );
}

function checkName(raw: string, errors: FieldProblem[]): string | undefined {
  const name = raw.trim();
  if (name.length === 0) errors.push({ field: "name", message: "name is required." });
  else if ([...name].length > CHANNEL_LIMITS.nameMaxLength) {
    errors.push({ field: "name", message: `name must be at most ${CHANNEL_LIMITS.nameMaxLength} characters.` });
  } else return name;
  return undefined;
}

/** A key for the kinds that need one (1 to 500 printable characters), none for the others. */
function checkKey(kind: string | undefined, raw: string, errors: FieldProblem[]): string | undefined {
  const keyed = (KEYED_KINDS as readonly string[]).includes(kind ?? "");
  const key = raw.trim();
  if (!keyed) {
    if (key !== "") errors.push({ field: "key", message: "key applies to pagerduty and opsgenie channels only." });
    return undefined;
  }
  if (key === "") errors.push({ field: "key", message: `key is required for a ${kind} channel.` });
  else if (key.length > 500 || !/^[\x21-\x7e]+$/.test(key)) {
    errors.push({ field: "key", message: "key must be 1 to 500 printable ASCII characters without spaces." });
  } else return key;
  return undefined;
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
