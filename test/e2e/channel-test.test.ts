// POST /admin/v1/channels/{id}/test: a clearly marked test message through the channel's real sender,
// now, and the receiver's answer reported; nothing stored, nothing retried, audited.
import { verify } from "@pulsegate/sdk";
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { receiversClosedAfterEach } from "../support/receiver.ts";
import { createChannel } from "./notifications-helpers.ts";

const client = new Client(inject("stack"));
const receiver = receiversClosedAfterEach();

const testChannel = (id: string, token?: string) => client.admin("POST", `/channels/${id}/test`, {}, token);

describe("sending a test notification", () => {
  it("sends a signed, marked test event to a webhook channel and reports it delivered", async () => {
    const { teamId, secret } = await client.createTeam();
    const hook = await receiver();
    const channel = await createChannel(client, teamId, { kind: "webhook", url: hook.url("/pulsegate") });
    const answer = await testChannel(channel.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      test: { delivered: true, statusCode: 200, error: null, durationMs: expect.any(Number) },
    });
    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    expect(request?.headers["x-pulsegate-event"]).toBe("channel.test");
    expect(request?.json).toMatchObject({
      type: "channel.test",
      alert: { title: expect.stringMatching(/^\[TEST\] /), severity: "sev4", source: "test", sourceId: channel.id },
    });
    // Signed with the team's secret, as every delivery is.
    expect(verify(secret, request?.raw as Buffer, request?.headers["x-webhook-signature"])).toBe(true);
    // Nothing stored: no alert, and the channel's health is untouched.
    expect((await client.admin("GET", `/teams/${teamId}/alerts`)).body.alerts).toEqual([]);
    // The audit log is written by a queue after the answer: wait for the entry.
    const entry = await eventually(
      async () => {
        const log = await client.admin("GET", `/teams/${teamId}/audit-log`);
        return (log.body.entries as Record<string, unknown>[]).find((candidate) => candidate.action === "channel.test");
      },
      { what: "the channel.test audit entry" },
    );
    expect(entry).toMatchObject({
      action: "channel.test",
      target: { kind: "channel", id: channel.id },
      details: { delivered: true },
    });
  });

  it("sends a Slack message people can tell is a test", async () => {
    const { teamId } = await client.createTeam();
    const slack = await receiver();
    const channel = await createChannel(client, teamId, { kind: "slack", url: slack.url() });
    expect((await testChannel(channel.id)).body.test).toMatchObject({ delivered: true });
    expect(String(slack.requests[0]?.json.text)).toContain("[TEST] Pulsegate test notification");
  });

  it("reports a refusal, once, without retrying it or failing the channel", async () => {
    const { teamId } = await client.createTeam();
    const hook = await receiver(() => 503);
    const channel = await createChannel(client, teamId, { kind: "webhook", url: hook.url("/down") });
    const answer = await testChannel(channel.id);
    expect(answer.status).toBe(200);
    expect(answer.body.test).toMatchObject({ delivered: false, statusCode: 503, error: "HTTP 503" });
    await new Promise((done) => setTimeout(done, 1_000));
    expect(hook.requests).toHaveLength(1);
    const listed = (await client.admin("GET", `/teams/${teamId}/channels`)).body.channels as Record<string, unknown>[];
    expect(listed[0]).toMatchObject({ id: channel.id, enabled: true, disabledReason: null });
  });

  it("reports a receiver that cannot be reached in words that never show its URL", async () => {
    const { teamId } = await client.createTeam();
    const gone = await receiver();
    const url = gone.url("/secret-path-token");
    await gone.close();
    const channel = await createChannel(client, teamId, { kind: "webhook", url });
    const answer = await testChannel(channel.id);
    expect(answer.body.test).toEqual({
      delivered: false,
      statusCode: null,
      error: "connection refused",
      durationMs: expect.any(Number),
    });
    expect(JSON.stringify(answer.body)).not.toContain("secret-path-token");
  });

  it("answers as elsewhere for an unknown or deleted channel, another team's, and a read-only key", async () => {
    const { teamId } = await client.createTeam();
    const hook = await receiver();
    const channel = await createChannel(client, teamId, { kind: "webhook", url: hook.url() });
    expect((await testChannel("ch_doesnotexist")).status).toBe(404);
    const readKey = await client.admin("POST", `/teams/${teamId}/api-keys`, { name: "r", scope: "read" });
    expect((await testChannel(channel.id, readKey.body.token as string)).status).toBe(403);
    const other = await client.createTeam();
    const otherKey = await client.admin("POST", `/teams/${other.teamId}/api-keys`, { name: "w", scope: "write" });
    expect((await testChannel(channel.id, otherKey.body.token as string)).body.code).toBe("channel_not_found");
    expect((await client.admin("DELETE", `/channels/${channel.id}`)).status).toBe(204);
    expect((await testChannel(channel.id)).status).toBe(404);
    expect(hook.requests).toHaveLength(0);
  });
});
