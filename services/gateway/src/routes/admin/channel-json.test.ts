import { alerts } from "@pulsegate/proto";
import { describe, expect, it } from "vitest";
import { channelJson } from "./channel-json.ts";

const channel = (kind: alerts.ChannelKind, signatureScheme: alerts.SignatureScheme) =>
  alerts.Channel.fromPartial({ id: "ch_1", teamId: "team_1", kind, signatureScheme });

describe("channelJson", () => {
  it("names a webhook channel's scheme; none from an alerts service before schemes means pulsegate", () => {
    const { CHANNEL_KIND_WEBHOOK, CHANNEL_KIND_SLACK } = alerts.ChannelKind;
    const { SIGNATURE_SCHEME_UNSPECIFIED, SIGNATURE_SCHEME_STANDARD_WEBHOOKS } = alerts.SignatureScheme;
    expect(channelJson(channel(CHANNEL_KIND_WEBHOOK, SIGNATURE_SCHEME_STANDARD_WEBHOOKS)).signatureScheme).toBe(
      "standard-webhooks",
    );
    expect(channelJson(channel(CHANNEL_KIND_WEBHOOK, SIGNATURE_SCHEME_UNSPECIFIED)).signatureScheme).toBe("pulsegate");
    expect(channelJson(channel(CHANNEL_KIND_SLACK, SIGNATURE_SCHEME_UNSPECIFIED)).signatureScheme).toBeNull();
  });
});
