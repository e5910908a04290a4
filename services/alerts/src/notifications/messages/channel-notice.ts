import type { DeliveryEvent } from "@pulsegate/contract/vocabulary";
import type { ChannelView } from "../channels/channel.ts";

export const CHANNEL_DISABLED = "channel.disabled" satisfies DeliveryEvent;

/** The outbox event of a channel the delivery policy disabled; goes once to the team's other channels. */
export type ChannelNoticeEvent = {
  type: typeof CHANNEL_DISABLED;
  occurredAt: string;
  channel: Pick<ChannelView, "id" | "teamId" | "kind" | "name" | "maskedUrl"> & {
    disabledReason: string;
    disabledAt: string;
  };
};

/**
 * Which of a team's enabled channels hear that another was disabled: the ones people read. An incident
 * tool (PagerDuty, Opsgenie) takes alert events only; a notice there would open an incident, or be refused.
 */
export function noticeRecipients(channels: { id: string; kind: string }[]): string[] {
  return channels.filter((channel) => channel.kind !== "pagerduty" && channel.kind !== "opsgenie").map((c) => c.id);
}

export function channelNoticePayload(channel: ChannelNoticeEvent["channel"]): string {
  return JSON.stringify({ type: CHANNEL_DISABLED, occurredAt: channel.disabledAt, channel });
}

/** What a webhook channel receives: the event with its id (same bytes on every attempt). */
export function channelNoticeBody(eventId: string, event: ChannelNoticeEvent): Buffer {
  return Buffer.from(
    JSON.stringify({ id: eventId, type: event.type, occurredAt: event.occurredAt, channel: event.channel }),
  );
}

/** The Slack message: the channel's name comes from an admin, yet is escaped like any text. */
export function channelNoticeSlackMessage(event: ChannelNoticeEvent) {
  const name = escapeText(event.channel.name);
  const reason = escapeText(event.channel.disabledReason);
  const what = `Notification channel "${name}" (${event.channel.kind}) was disabled: ${reason}`;
  return {
    text: what,
    blocks: [
      { type: "header", text: { type: "plain_text", text: ":no_entry: Notification channel disabled", emoji: true } },
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `${what}.\nAlerts no longer reach it until an admin enables it again (PATCH /admin/v1/channels/${escapeText(event.channel.id)} {"enabled": true}).`,
        },
      },
      { type: "context", elements: [{ type: "mrkdwn", text: `Disabled at ${escapeText(event.channel.disabledAt)}` }] },
    ],
    unfurl_links: false,
    unfurl_media: false,
  };
}

function escapeText(value: string): string {
  return String(value).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
