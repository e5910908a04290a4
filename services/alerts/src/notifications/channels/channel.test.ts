import { describe, expect, it } from "vitest";
import type { Channel } from "./channel.entity.ts";
import { channelView } from "./channel.ts";

const channel = (fields: Partial<Channel>): Channel =>
  ({
    id: "ch_1",
    teamId: "team_1",
    kind: "webhook",
    name: "hooks",
    credentialsSealed: Buffer.from("sealed"),
    maskedUrl: "https://example.com/…",
    enabled: true,
    disabledReason: null,
    disabledAt: null,
    failingSince: null,
    failedDeliveries: 0,
    signatureScheme: "pulsegate",
    signingSecretRotatedAt: null,
    previousSigningSecretValidUntil: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    deletedAt: null,
    ...fields,
  }) as Channel;

describe("channelView", () => {
  it("shows a webhook channel's scheme, and pulsegate for one a release before schemes wrote", () => {
    expect(channelView(channel({ signatureScheme: "standard-webhooks" })).signatureScheme).toBe("standard-webhooks");
    expect(channelView(channel({ signatureScheme: "pulsegate" })).signatureScheme).toBe("pulsegate");
    expect(channelView(channel({ signatureScheme: null })).signatureScheme).toBe("pulsegate");
  });

  it("shows no scheme for the other kinds, and never the credentials", () => {
    const view = channelView(channel({ kind: "slack", signatureScheme: null }));
    expect(view.signatureScheme).toBeNull();
    expect(view).not.toHaveProperty("credentialsSealed");
  });
});
