// PagerDuty Events v2 and Opsgenie as channel kinds, through the same outbox, retries and guard.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { Receiver } from "../support/receiver.ts";
import { waitForDeliveries } from "./notifications-helpers.ts";

const stack = inject("stack");
const client = new Client(stack);
let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
});
afterAll(() => receiver.close());

async function channel(teamId: string, body: Record<string, unknown>) {
  return client.admin("POST", `/teams/${teamId}/channels`, { name: String(body.kind), ...body });
}

const to = (path: string) => receiver.requests.filter((request) => request.path.startsWith(path));

describe("incident tool channels", () => {
  it("pagerduty: a trigger event per created alert (dedup_key = alert id) and a resolve event", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const created = await channel(teamId, {
      kind: "pagerduty",
      url: receiver.url(`/pd/${teamId}/v2/enqueue`),
      key: "R0UT1NGKEY0123456789abcdef",
    });
    expect(created.status).toBe(201);
    expect(created.body.channel).toMatchObject({ kind: "pagerduty" });
    expect(JSON.stringify(created.body)).not.toContain("R0UT1NGKEY");

    const trigger = await client.trigger(
      webhookUrl,
      { title: "Checkout down", severity: "sev0", group_key: "checkout", metadata: { env: "production" } },
      { secret },
    );
    const alertId = trigger.body.alertId as string;
    await client.admin("POST", `/alerts/${alertId}/resolve`);
    const deliveries = await waitForDeliveries(
      client,
      alertId,
      (list) => list.length === 2 && list.every((delivery) => delivery.status === "delivered"),
      "trigger and resolve delivered",
    );
    expect(deliveries.map((delivery) => delivery.channelKind)).toEqual(["pagerduty", "pagerduty"]);
    const [triggerEvent, resolveEvent] = to(`/pd/${teamId}`).map((request) => request.json);
    expect(triggerEvent).toMatchObject({
      routing_key: "R0UT1NGKEY0123456789abcdef",
      event_action: "trigger",
      dedup_key: alertId,
      payload: {
        summary: "Checkout down",
        severity: "critical",
        group: "checkout",
        custom_details: { event: "alert.created", metadata: { env: "production" } },
      },
    });
    expect(resolveEvent).toEqual({
      routing_key: "R0UT1NGKEY0123456789abcdef",
      event_action: "resolve",
      dedup_key: alertId,
    });
  });

  it("opsgenie: create with the alias and GenieKey, acknowledge and close by alias, saying who", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const base = receiver.url(`/og/${teamId}/v2/alerts`);
    expect((await channel(teamId, { kind: "opsgenie", url: base, key: "genie-key-123" })).status).toBe(201);
    const trigger = await client.trigger(webhookUrl, { title: "Queue stuck", severity: "sev2" }, { secret });
    const alertId = trigger.body.alertId as string;
    await client.admin("POST", `/alerts/${alertId}/acknowledge`);
    await client.admin("POST", `/alerts/${alertId}/resolve`);
    await waitForDeliveries(
      client,
      alertId,
      (list) => list.length === 3 && list.every((delivery) => delivery.status === "delivered"),
      "create, acknowledge and close delivered",
    );
    const [create, acknowledge, close] = to(`/og/${teamId}`);
    expect(acknowledge?.path).toBe(`/og/${teamId}/v2/alerts/${alertId}/acknowledge?identifierType=alias`);
    expect(acknowledge?.json).toEqual({ source: "Pulsegate", note: "Acknowledged by admin token" });
    expect(create?.path).toBe(`/og/${teamId}/v2/alerts`);
    expect(create?.headers.authorization).toBe("GenieKey genie-key-123");
    expect(create?.json).toMatchObject({ message: "Queue stuck", alias: alertId, priority: "P3", source: "Pulsegate" });
    expect(close?.path).toBe(`/og/${teamId}/v2/alerts/${alertId}/close?identifierType=alias`);
    expect(close?.headers.authorization).toBe("GenieKey genie-key-123");
    // Resolved with the admin token: the close note says so.
    expect(close?.json).toEqual({ source: "Pulsegate", note: "Resolved by admin token" });
  });

  it("a key is required for pagerduty and opsgenie and refused for the others; the URL passes the same checks", async () => {
    const { teamId } = await client.createTeam();
    const noKey = await channel(teamId, { kind: "pagerduty", url: receiver.url("/x") });
    expect(noKey.status).toBe(400);
    expect(noKey.body).toMatchObject({ code: "invalid_request", details: [{ field: "key" }] });
    const slackKey = await channel(teamId, { kind: "slack", url: receiver.url("/y"), key: "nope" });
    expect(slackKey.body).toMatchObject({ code: "invalid_request", details: [{ field: "key" }] });
    const badUrl = await channel(teamId, { kind: "opsgenie", url: "ftp://example.com/alerts", key: "k" });
    expect(badUrl.body).toMatchObject({ code: "invalid_request", details: [{ field: "url" }] });
    // This stack's alerts service has no SMTP relay (SMTP_URL): email channels are refused, saying why.
    const email = await channel(teamId, { kind: "email", url: "mailto:ops@example.com" });
    expect(email.status).toBe(400);
    expect(email.body).toMatchObject({ details: [{ field: "kind", message: expect.stringContaining("SMTP_URL") }] });
  });

  it("changing a channel's URL keeps its sealed key, and its key can be replaced", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const created = await channel(teamId, {
      kind: "pagerduty",
      url: receiver.url(`/pd-old/${teamId}`),
      key: "first-key",
    });
    const id = (created.body.channel as { id: string }).id;
    expect((await client.admin("PATCH", `/channels/${id}`, { url: receiver.url(`/pd-new/${teamId}`) })).status).toBe(
      200,
    );
    const first = await client.trigger(webhookUrl, { title: "one" }, { secret });
    await waitForDeliveries(client, first.body.alertId as string, (list) => list[0]?.status === "delivered", "first");
    expect(to(`/pd-new/${teamId}`).map((request) => request.json.routing_key)).toEqual(["first-key"]);
    expect((await client.admin("PATCH", `/channels/${id}`, { key: "second-key" })).status).toBe(200);
    const second = await client.trigger(webhookUrl, { title: "two" }, { secret });
    await waitForDeliveries(client, second.body.alertId as string, (list) => list[0]?.status === "delivered", "second");
    expect(to(`/pd-new/${teamId}`).map((request) => request.json.routing_key)).toEqual(["first-key", "second-key"]);
  });
});
