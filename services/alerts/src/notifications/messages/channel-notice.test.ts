import { describe, expect, it } from "vitest";
import {
  type ChannelNoticeEvent,
  channelNoticeBody,
  channelNoticeSlackMessage,
  noticeRecipients,
} from "./channel-notice.ts";

const event: ChannelNoticeEvent = {
  type: "channel.disabled",
  occurredAt: "2026-03-01T10:00:00.000Z",
  channel: {
    id: "ch_1",
    teamId: "team_1",
    kind: "webhook",
    name: "<!channel> pager",
    maskedUrl: "https://example.com/…abcd",
    disabledReason: "the receiver answered 410 Gone",
    disabledAt: "2026-03-01T10:00:00.000Z",
  },
};

describe("channel notices", () => {
  it("go to the channels people read, not to incident tools", () => {
    const channels = ["slack", "webhook", "email", "pagerduty", "opsgenie"].map((kind) => ({ id: `ch_${kind}`, kind }));
    expect(noticeRecipients(channels)).toEqual(["ch_slack", "ch_webhook", "ch_email"]);
  });

  it("gives a webhook the event with its id and the channel, never a URL", () => {
    const body = JSON.parse(channelNoticeBody("evt_7", event).toString());
    expect(body).toEqual({
      id: "evt_7",
      type: "channel.disabled",
      occurredAt: event.occurredAt,
      channel: event.channel,
    });
  });

  it("tells Slack which channel stopped and why, with the name escaped", () => {
    const message = channelNoticeSlackMessage(event);
    expect(message.text).toBe(
      'Notification channel "&lt;!channel&gt; pager" (webhook) was disabled: the receiver answered 410 Gone',
    );
    expect(JSON.stringify(message)).not.toContain("<!channel>");
    expect(message.unfurl_links).toBe(false);
  });
});
