import { toDate } from "../alerts/alert-row.ts";

export const CHANNEL_KINDS = ["slack", "webhook", "pagerduty", "opsgenie", "email"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** Kinds whose credentials include a key besides the URL (a routing key, an API key). */
export const KEYED_KINDS: readonly ChannelKind[] = ["pagerduty", "opsgenie"];

export function isChannelKind(value: unknown): value is ChannelKind {
  return typeof value === "string" && (CHANNEL_KINDS as readonly string[]).includes(value);
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
  createdAt: Date;
  updatedAt: Date;
};

export type ChannelRow = {
  id: string;
  team_id: string;
  kind: ChannelKind;
  name: string;
  /** Scheme, host and the last four characters; the URL itself is only in credentials_sealed. */
  masked_url: string;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

/** The columns a ChannelRow reads: never credentials_sealed, which only the dispatcher opens. */
export const CHANNEL_COLUMNS =
  "id, team_id, kind, name, masked_url, enabled, disabled_reason, disabled_at, created_at, updated_at";

export function channelFromRow(row: ChannelRow): ChannelView {
  return {
    id: row.id,
    teamId: row.team_id,
    kind: row.kind,
    name: row.name,
    maskedUrl: row.masked_url,
    enabled: row.enabled,
    disabledReason: row.disabled_reason ?? null,
    disabledAt: row.disabled_at ? toDate(row.disabled_at) : null,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}
