import { toDate } from "../alerts/alert-row.ts";
import { maskUrl } from "./mask-url.ts";

export const CHANNEL_KINDS = ["slack", "webhook"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

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
  createdAt: Date;
  updatedAt: Date;
};

export type ChannelRow = {
  id: string;
  team_id: string;
  kind: ChannelKind;
  name: string;
  url: string;
  enabled: boolean;
  created_at: Date | string;
  updated_at: Date | string;
};

export function channelFromRow(row: ChannelRow): ChannelView {
  return {
    id: row.id,
    teamId: row.team_id,
    kind: row.kind,
    name: row.name,
    maskedUrl: maskUrl(row.url),
    enabled: row.enabled,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}
