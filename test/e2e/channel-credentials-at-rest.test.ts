// A channel's URL is a bearer credential. The database holds it only sealed
// (AES-256-GCM under a key derived from SECRET_KEK, bound to the channel id); the admin API shows
// it masked; the dispatcher alone opens it, and still delivers.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { receiversClosedAfterEach } from "../support/receiver.ts";
import { allSettled, createChannel, waitForDeliveries } from "./notifications-helpers.ts";

const stack = inject("stack");
const client = new Client(stack);
const receiver = receiversClosedAfterEach();

const token = () => randomBytes(18).toString("base64url");

function dumpDatabase(): string {
  return execFileSync("pg_dump", ["--inserts", stack.databaseUrl], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
}

describe("channel credentials at rest", () => {
  it("keeps no channel URL or token in a pg_dump, shows them masked, and still delivers", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const slack = await receiver();
    const hook = await receiver();
    const slackToken = token();
    const hookToken = token();
    const slackUrl = slack.url(`/services/T0PULSE/B0GATE/${slackToken}`);
    const firstHookUrl = hook.url(`/pulsegate?token=${token()}`);
    const hookUrl = hook.url(`/pulsegate?token=${hookToken}`);
    const slackChannel = await createChannel(client, teamId, { kind: "slack", url: slackUrl });
    const hookChannel = await createChannel(client, teamId, { kind: "webhook", url: firstHookUrl });
    // A changed URL is sealed too.
    const patched = await client.admin("PATCH", `/channels/${hookChannel.id}`, { url: hookUrl });
    expect(patched.status).toBe(200);

    const listed = (await client.admin("GET", `/teams/${teamId}/channels`)).body.channels as Record<string, unknown>[];
    expect(listed.map((channel) => channel.maskedUrl)).toEqual([
      `${new URL(slackUrl).origin}/…${slackToken.slice(-4)}`,
      `${new URL(hookUrl).origin}/…${hookToken.slice(-4)}`,
    ]);
    expect(JSON.stringify(listed)).not.toContain(slackToken);
    expect(JSON.stringify(listed)).not.toContain(hookToken);

    const dump = dumpDatabase();
    // The dump holds the channels (the search is over the right rows)…
    expect(dump).toContain(slackChannel.id);
    expect(dump).toContain(hookChannel.id);
    // …but neither URL nor token, in any encoding the columns could have used.
    for (const value of [slackUrl, firstHookUrl, hookUrl, slackToken, hookToken, new URL(slackUrl).pathname]) {
      expect(dump).not.toContain(value);
      expect(dump).not.toContain(Buffer.from(value).toString("hex"));
      expect(dump).not.toContain(Buffer.from(value).toString("base64"));
    }

    // The dispatcher opens them to send.
    const trigger = await client.trigger(webhookUrl, { title: "Sealed, yet delivered" }, { secret });
    expect(trigger.status).toBe(201);
    const deliveries = await waitForDeliveries(client, trigger.body.alertId as string, allSettled, "both delivered");
    expect(deliveries.map((delivery) => delivery.status)).toEqual(["delivered", "delivered"]);
    expect(slack.requests.map((request) => request.path)).toEqual([new URL(slackUrl).pathname]);
    expect(hook.requests.map((request) => request.path)).toEqual([`/pulsegate?token=${hookToken}`]);
  });
});
