// Notifications of created, reopened and resolved alerts, through
// real HTTP, to receivers this test starts on 127.0.0.1.
import { createHmac } from "node:crypto";
import { verify } from "@pulsegate/sdk";
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { receiversClosedAfterEach } from "../support/receiver.ts";
import { allSettled, createChannel, deliveriesOf, waitForDeliveries } from "./notifications-helpers.ts";

const client = new Client(inject("stack"));
const receiver = receiversClosedAfterEach();

const eventTypes = (requests: { json: Record<string, unknown> }[]) => requests.map((request) => request.json.type);

describe("notifications", () => {
  it("sends a created alert once to each channel: a Slack message and a signed webhook event", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const slack = await receiver();
    const hook = await receiver();
    const slackChannel = await createChannel(client, teamId, { kind: "slack", url: slack.url() });
    const hookChannel = await createChannel(client, teamId, { kind: "webhook", url: hook.url("/pulsegate") });

    const trigger = await client.trigger(
      webhookUrl,
      {
        title: "Disk full on db-1",
        description: "Only 2% left",
        severity: "sev1",
        metadata: { env: "production", host: "db-1" },
        group_key: "disk-db-1",
      },
      { secret },
    );
    expect(trigger.body.status).toBe("created");
    const alertId = trigger.body.alertId as string;

    const [slackRequest] = await slack.waitForCount(1);
    const [hookRequest] = await hook.waitForCount(1);
    const settled = await waitForDeliveries(
      client,
      alertId,
      (list) => list.length === 2 && allSettled(list),
      "2 delivered",
    );

    // Slack: a message people read.
    expect(slackRequest?.method).toBe("POST");
    expect(slackRequest?.headers["content-type"]).toBe("application/json");
    const slackText = JSON.stringify(slackRequest?.json);
    for (const part of [
      "SEV1",
      "Alert created",
      "Disk full on db-1",
      "Only 2% left",
      "*Occurrences*\\n1",
      "alert.created",
    ]) {
      expect(slackText).toContain(part);
    }
    expect(slackText).toContain("`env`: `production`");
    expect(slackRequest?.json.text).toBe("[SEV1] Alert created: Disk full on db-1");

    // Webhook: the event as JSON, signed like the requests callers send us.
    expect(hookRequest?.path).toBe("/pulsegate");
    expect(hookRequest?.json).toMatchObject({
      type: "alert.created",
      alert: { id: alertId, teamId, title: "Disk full on db-1", severity: "sev1", occurrenceCount: 1, status: "open" },
    });
    expect(hookRequest?.json.id).toEqual(expect.stringMatching(/^evt_/));
    const expected = createHmac("sha256", secret)
      .update(hookRequest?.raw as Buffer)
      .digest("hex");
    expect(hookRequest?.headers["x-webhook-signature"]).toBe(expected);
    // What a receiver runs: the SDK's constant-time check.
    expect(verify(secret, hookRequest?.raw as Buffer, hookRequest?.headers["x-webhook-signature"])).toBe(true);
    expect(slackRequest?.headers["x-webhook-signature"]).toBeUndefined();

    // One delivery per channel, with the delivery id the receiver saw.
    expect(settled.map((delivery) => delivery.channelId).sort()).toEqual([slackChannel.id, hookChannel.id].sort());
    for (const delivery of settled) {
      expect(delivery).toMatchObject({ alertId, eventType: "alert.created", status: "delivered", attempts: 1 });
      expect(delivery.lastStatusCode).toBe(200);
      expect(delivery.lastError).toBeNull();
    }
    const slackDelivery = settled.find((delivery) => delivery.channelId === slackChannel.id);
    expect(slackRequest?.headers["x-pulsegate-delivery"]).toBe(slackDelivery?.id);
    expect(hookRequest?.headers["x-pulsegate-event-id"]).toBe(hookRequest?.json.id);
    expect(slack.requests).toHaveLength(1);
    expect(hook.requests).toHaveLength(1);
  });

  it("notifies nobody of a fold, and sends an alert's events in order: created, resolved, reopened", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const hook = await receiver();
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });

    const first = await client.trigger(webhookUrl, { title: "API down", group_key: "api" }, { secret });
    const fold = await client.trigger(webhookUrl, { title: "API down", group_key: "api" }, { secret });
    expect(fold.body.status).toBe("occurrence_added");
    const alertId = first.body.alertId as string;
    expect((await client.admin("POST", `/alerts/${alertId}/resolve`)).status).toBe(200);
    const reopened = await client.trigger(webhookUrl, { title: "API down", group_key: "api" }, { secret });
    expect(reopened.body).toMatchObject({ status: "reopened", alertId, occurrenceCount: 3 });

    // Events of one alert reach a channel in order, so a notification for the
    // fold would have arrived between created and resolved.
    await hook.waitForCount(3);
    expect(eventTypes(hook.requests)).toEqual(["alert.created", "alert.resolved", "alert.reopened"]);
    expect(hook.requests[1]?.json).toMatchObject({ alert: { status: "resolved", occurrenceCount: 2 } });
    expect(hook.requests[2]?.json).toMatchObject({ alert: { status: "open", occurrenceCount: 3 } });
    const deliveries = await waitForDeliveries(client, alertId, (list) => list.length === 3 && allSettled(list), "3");
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual([
      "alert.created",
      "alert.resolved",
      "alert.reopened",
    ]);
    expect(new Set(deliveries.map((delivery) => delivery.id)).size).toBe(3);
  });

  it("routes by severity: sev0 and sev4 go to different channels", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const pager = await receiver();
    const chat = await receiver();
    const pagerChannel = await createChannel(client, teamId, { kind: "webhook", url: pager.url() });
    const chatChannel = await createChannel(client, teamId, { kind: "slack", url: chat.url() });
    const policy = await client.admin("PUT", `/teams/${teamId}/notification-policy`, {
      routes: [
        { severities: ["sev0", "sev1"], channelIds: [pagerChannel.id] },
        { severities: ["sev3", "sev4"], channelIds: [chatChannel.id] },
      ],
    });
    expect(policy.status).toBe(200);
    expect(policy.body.policy).toMatchObject({
      teamId,
      routes: [
        { severities: ["sev0", "sev1"], channelIds: [pagerChannel.id] },
        { severities: ["sev3", "sev4"], channelIds: [chatChannel.id] },
      ],
    });

    const critical = await client.trigger(webhookUrl, { title: "Payments down", severity: "sev0" }, { secret });
    const minor = await client.trigger(webhookUrl, { title: "Cert expires in 20 days", severity: "sev4" }, { secret });
    await pager.waitForCount(1);
    await chat.waitForCount(1);
    const criticalDeliveries = await waitForDeliveries(client, critical.body.alertId as string, allSettled, "sev0");
    const minorDeliveries = await waitForDeliveries(client, minor.body.alertId as string, allSettled, "sev4");

    expect(criticalDeliveries.map((delivery) => delivery.channelId)).toEqual([pagerChannel.id]);
    expect(minorDeliveries.map((delivery) => delivery.channelId)).toEqual([chatChannel.id]);
    expect(pager.requests.map((request) => (request.json.alert as { title: string }).title)).toEqual(["Payments down"]);
    expect(pager.requests).toHaveLength(1);
    expect(chat.requests).toHaveLength(1);
    expect(chat.requests[0]?.json.text).toBe("[SEV4] Alert created: Cert expires in 20 days");
  });

  it("retries a receiver that answers 500 twice: three requests, one delivery id, then delivered", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const hook = await receiver();
    hook.behaviour = (_request, index) => (index < 2 ? 500 : 200);
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });

    const trigger = await client.trigger(webhookUrl, { title: "Flaky receiver" }, { secret });
    const requests = await hook.waitForCount(3);
    const ids = new Set(requests.map((request) => request.headers["x-pulsegate-delivery"]));
    expect(ids.size).toBe(1);
    expect(requests.map((request) => request.headers["x-pulsegate-attempt"])).toEqual(["1", "2", "3"]);
    // Every attempt carries the same bytes, each correctly signed.
    expect(new Set(requests.map((request) => request.raw.toString("base64"))).size).toBe(1);
    for (const request of requests) {
      expect(request.headers["x-webhook-signature"]).toBe(
        createHmac("sha256", secret).update(request.raw).digest("hex"),
      );
    }
    const [delivery] = await waitForDeliveries(client, trigger.body.alertId as string, allSettled, "delivered");
    expect(delivery).toMatchObject({ status: "delivered", attempts: 3, lastStatusCode: 200, lastError: null });
    expect(delivery?.id).toBe([...ids][0]);
  });

  it("times out a receiver that never answers, and tries again with the same delivery id", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const hook = await receiver();
    hook.behaviour = (_request, index) => (index === 0 ? "hang" : 200);
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });

    const trigger = await client.trigger(webhookUrl, { title: "Slow receiver" }, { secret });
    const requests = await hook.waitForCount(2);
    expect(requests[0]?.headers["x-pulsegate-delivery"]).toBe(requests[1]?.headers["x-pulsegate-delivery"]);
    const [delivery] = await waitForDeliveries(client, trigger.body.alertId as string, allSettled, "delivered");
    expect(delivery).toMatchObject({ status: "delivered", attempts: 2 });
  });

  it("gives up after the configured number of attempts: failed, with the last error", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const hook = await receiver();
    hook.behaviour = () => 503;
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });

    const trigger = await client.trigger(webhookUrl, { title: "Receiver gone" }, { secret });
    const [delivery] = await waitForDeliveries(client, trigger.body.alertId as string, allSettled, "failed", 25_000);
    expect(delivery).toMatchObject({
      status: "failed",
      attempts: 8,
      maxAttempts: 8,
      lastStatusCode: 503,
      lastError: "HTTP 503",
    });
    expect(hook.requests).toHaveLength(8);
    expect(new Set(hook.requests.map((request) => request.headers["x-pulsegate-delivery"])).size).toBe(1);
  }, 30_000);

  it("sends a failed delivery again on request, under the same delivery id, until it is delivered", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const hook = await receiver();
    let up = false;
    hook.behaviour = () => (up ? 200 : 503);
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });
    const trigger = await client.trigger(webhookUrl, { title: "Receiver down for a while" }, { secret });
    const [failed] = await waitForDeliveries(client, trigger.body.alertId as string, allSettled, "failed", 25_000);
    expect(failed?.status).toBe("failed");

    up = true;
    const retried = await client.admin("POST", `/deliveries/${failed?.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.delivery).toMatchObject({ id: failed?.id, status: "pending", maxAttempts: 16 });
    const [delivered] = await waitForDeliveries(
      client,
      trigger.body.alertId as string,
      allSettled,
      "delivered",
      10_000,
    );
    expect(delivered).toMatchObject({ id: failed?.id, status: "delivered", attempts: 9, lastStatusCode: 200 });
    expect(new Set(hook.requests.map((request) => request.headers["x-pulsegate-delivery"]))).toEqual(
      new Set([failed?.id]),
    );

    const again = await client.admin("POST", `/deliveries/${failed?.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("delivery_not_failed");
    expect((await client.admin("POST", "/deliveries/dlv_nope/retry")).status).toBe(404);
  }, 40_000);

  it("a later event of an alert waits while an earlier one to the same channel is retried", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const hook = await receiver();
    // The created event fails twice; the resolved event must not overtake it.
    hook.behaviour = (request, index) => (request.json.type === "alert.created" && index < 2 ? 500 : 200);
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });
    const trigger = await client.trigger(webhookUrl, { title: "Ordered" }, { secret });
    const alertId = trigger.body.alertId as string;
    await hook.waitForCount(1);
    expect((await client.admin("POST", `/alerts/${alertId}/resolve`)).status).toBe(200);
    await hook.waitForCount(4);
    expect(eventTypes(hook.requests)).toEqual(["alert.created", "alert.created", "alert.created", "alert.resolved"]);
  });

  it("sends nothing to a disabled or deleted channel", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const live = await receiver();
    const off = await receiver();
    const gone = await receiver();
    await createChannel(client, teamId, { kind: "webhook", url: live.url() });
    const offChannel = await createChannel(client, teamId, { kind: "webhook", url: off.url() });
    const goneChannel = await createChannel(client, teamId, { kind: "webhook", url: gone.url() });
    expect((await client.admin("PATCH", `/channels/${offChannel.id}`, { enabled: false })).status).toBe(200);
    expect((await client.admin("DELETE", `/channels/${goneChannel.id}`)).status).toBe(204);

    const trigger = await client.trigger(webhookUrl, { title: "Only one" }, { secret });
    await live.waitForCount(1);
    const deliveries = await waitForDeliveries(client, trigger.body.alertId as string, allSettled, "one");
    expect(deliveries).toHaveLength(1);
    expect(off.requests).toHaveLength(0);
    expect(gone.requests).toHaveLength(0);
  });
});

describe("notification admin API", () => {
  it("creates, lists, updates and deletes channels, showing URLs masked only", async () => {
    const { teamId } = await client.createTeam();
    const secretUrl = "https://hooks.slack.com/services/T0SECRET1/B0SECRET2/abcdefghijklmnopqrstWXYZ";
    const created = await client.admin("POST", `/teams/${teamId}/channels`, {
      kind: "slack",
      name: "#incidents",
      url: secretUrl,
    });
    expect(created.status).toBe(201);
    const channel = created.body.channel as Record<string, unknown>;
    expect(channel).toMatchObject({
      teamId,
      kind: "slack",
      name: "#incidents",
      maskedUrl: "https://hooks.slack.com/…WXYZ",
      enabled: true,
    });
    expect(Object.keys(channel).sort()).toEqual(
      [
        "createdAt",
        "disabledAt",
        "disabledReason",
        "enabled",
        "id",
        "kind",
        "maskedUrl",
        "name",
        "previousSigningSecretValidUntil",
        "signatureScheme",
        "signingSecretRotatedAt",
        "teamId",
        "updatedAt",
      ].sort(),
    );

    const listed = await client.admin("GET", `/teams/${teamId}/channels`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ channels: [channel], nextCursor: null });
    expect(JSON.stringify(listed.body)).not.toContain("T0SECRET1");

    const updated = await client.admin("PATCH", `/channels/${channel.id}`, { name: "#ops", enabled: false });
    expect(updated.status).toBe(200);
    expect(updated.body.channel).toMatchObject({
      name: "#ops",
      enabled: false,
      maskedUrl: "https://hooks.slack.com/…WXYZ",
    });

    expect((await client.admin("DELETE", `/channels/${channel.id}`)).status).toBe(204);
    expect((await client.admin("GET", `/teams/${teamId}/channels`)).body).toEqual({ channels: [], nextCursor: null });
    const again = await client.admin("DELETE", `/channels/${channel.id}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("channel_not_found");
  });

  it("refuses bad channels with a 400 naming the field", async () => {
    const { teamId } = await client.createTeam();
    const bad = async (body: Record<string, unknown>) => client.admin("POST", `/teams/${teamId}/channels`, body);
    const kind = await bad({ kind: "email", name: "x", url: "https://example.com/x" });
    expect(kind.status).toBe(400);
    const scheme = await bad({ kind: "webhook", name: "x", url: "ftp://example.com/x" });
    expect(scheme.status).toBe(400);
    expect(scheme.body).toMatchObject({
      code: "invalid_request",
      details: [{ field: "url", message: "url must use http or https." }],
    });
    const missing = await bad({ kind: "webhook", name: "x" });
    expect(missing.status).toBe(400);
  });

  it("answers 404 for an unknown team, channel or alert", async () => {
    const channel = await client.admin("POST", "/teams/team_nope/channels", {
      kind: "webhook",
      name: "x",
      url: "https://example.com/x",
    });
    expect(channel.status).toBe(404);
    expect((await client.admin("PATCH", "/channels/ch_nope", { enabled: false })).status).toBe(404);
    expect((await client.admin("GET", "/alerts/alert_nope/deliveries")).status).toBe(404);
  });

  it("keeps a policy: none at first, validated routes, deleted back to none", async () => {
    const { teamId } = await client.createTeam();
    const hook = await receiver();
    const channel = await createChannel(client, teamId, { kind: "webhook", url: hook.url() });
    expect((await client.admin("GET", `/teams/${teamId}/notification-policy`)).body).toEqual({ policy: null });

    const unknownChannel = await client.admin("PUT", `/teams/${teamId}/notification-policy`, {
      routes: [{ severities: ["sev0"], channelIds: ["ch_someone_elses"] }],
    });
    expect(unknownChannel.status).toBe(400);
    expect(unknownChannel.body.details).toEqual([
      { field: "routes[0].channelIds[0]", message: "No channel of this team has that id." },
    ]);
    const badSeverity = await client.admin("PUT", `/teams/${teamId}/notification-policy`, {
      routes: [{ severities: ["sev9"], channelIds: [channel.id] }],
    });
    expect(badSeverity.status).toBe(400);

    const put = await client.admin("PUT", `/teams/${teamId}/notification-policy`, {
      routes: [{ severities: ["sev2"], channelIds: [channel.id] }],
    });
    expect(put.status).toBe(200);
    const got = await client.admin("GET", `/teams/${teamId}/notification-policy`);
    expect(got.body).toEqual(put.body);
    expect((await client.admin("DELETE", `/teams/${teamId}/notification-policy`)).status).toBe(204);
    expect((await client.admin("GET", `/teams/${teamId}/notification-policy`)).body).toEqual({ policy: null });
  });

  it("lists no deliveries for an alert of a team without channels", async () => {
    const { secret, webhookUrl } = await client.setup();
    const trigger = await client.trigger(webhookUrl, { title: "Nobody listens" }, { secret });
    expect(await deliveriesOf(client, trigger.body.alertId as string)).toEqual([]);
  });
});
