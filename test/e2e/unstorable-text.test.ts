// Text PostgreSQL cannot keep as sent — U+0000 and unpaired surrogates, sent as
// JSON escapes — is refused with 400 naming the field, anywhere in trigger and
// ping bodies; a team that sends it cannot stall any team's notifications.
import { callUnary, connectClient } from "@pulsegate/grpc";
import { alerts, monitors } from "@pulsegate/proto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { receiversClosedAfterEach } from "../support/receiver.ts";
import { createChannel } from "./notifications-helpers.ts";

const stack = inject("stack");
const client = new Client(stack);
const alertsClient = connectClient(alerts.AlertsServiceClient, stack.grpc.alerts, { deadlineMs: 5_000 });
const monitorsClient = connectClient(monitors.MonitorsServiceClient, stack.grpc.monitors, { deadlineMs: 5_000 });
afterAll(() => {
  alertsClient.close();
  monitorsClient.close();
});
const startReceiver = receiversClosedAfterEach();

const fieldsOf = (body: Record<string, unknown>) =>
  (body.details as { field: string }[] | undefined)?.map((detail) => detail.field);

describe("unstorable text in triggers", () => {
  it.each([
    [String.raw`{"title":"t","metadata":{"k":"\u0000"}}`, "metadata.k"],
    [String.raw`{"title":"t","metadata":{"k":"\udfff"}}`, "metadata.k"],
    [String.raw`{"title":"t","metadata":{"list":[1,{"deep":"x\ud800y"}]}}`, "metadata.list[1].deep"],
    [String.raw`{"title":"a\ud800b"}`, "title"],
    [String.raw`{"title":"t","description":"\udc00"}`, "description"],
    [String.raw`{"title":"t","group_key":"\ud800"}`, "group_key"],
    [String.raw`{"title":"t","group_key":"k\u0000"}`, "group_key"],
  ])("%s → 400 naming %s", async (body, field) => {
    const { secret, webhookUrl } = await client.setup();
    const response = await client.trigger(webhookUrl, body, { secret });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid_request");
    expect(fieldsOf(response.body)).toEqual([field]);
  });

  it("keeps \\ud800, \\udfff and \\ufffd apart: the first two are refused, not folded into U+FFFD", async () => {
    const { secret, webhookUrl } = await client.setup();
    const replacement = await client.trigger(webhookUrl, String.raw`{"title":"t","group_key":"\ufffd"}`, { secret });
    expect(replacement.status).toBe(201);
    expect(replacement.body.status).toBe("created");
    for (const key of [String.raw`\ud800`, String.raw`\udfff`]) {
      const response = await client.trigger(webhookUrl, `{"title":"t","group_key":"${key}"}`, { secret });
      expect(response.status).toBe(400);
    }
    // A well-formed pair is text like any other.
    const emoji = await client.trigger(webhookUrl, String.raw`{"title":"\ud83d\ude00","group_key":"\ud83d\ude00"}`, {
      secret,
    });
    expect(emoji.status).toBe(201);
  });

  it("one team's refused text leaves every team's notifications flowing", async () => {
    const poisoner = await client.setup();
    const neighbour = await client.setup();
    const receiver = await startReceiver();
    await createChannel(client, poisoner.teamId, { kind: "webhook", url: receiver.url("/poisoner") });
    await createChannel(client, neighbour.teamId, { kind: "webhook", url: receiver.url("/neighbour") });
    for (const body of [
      String.raw`{"title":"p","metadata":{"k":"\u0000"}}`,
      String.raw`{"title":"p","metadata":{"k":"\udfff"}}`,
    ]) {
      expect((await client.trigger(poisoner.webhookUrl, body, { secret: poisoner.secret })).status).toBe(400);
    }
    const created = await client.trigger(
      neighbour.webhookUrl,
      { title: "Neighbour still pages", group_key: "neighbour" },
      { secret: neighbour.secret },
    );
    expect(created.status).toBe(201);
    await receiver.waitFor((requests) => requests.some((r) => r.path === "/neighbour"), "the neighbour's notification");
    expect(receiver.requests.filter((r) => r.path === "/neighbour")).toHaveLength(1);
    expect(receiver.requests.filter((r) => r.path === "/poisoner")).toEqual([]);
  });
});

describe("unstorable text in pings", () => {
  it.each([
    [String.raw`{"status":"down","reason":"disk\u0000"}`, "reason"],
    [String.raw`{"group_key":"\ud800"}`, "group_key"],
    [String.raw`{"metadata":{"k":"\u0000"}}`, "metadata.k"],
    [String.raw`{"build":{"log":"\udfff"}}`, "build.log"],
    [String.raw`{"extra":"\u0000"}`, "extra"],
  ])("%s → 400 naming %s, and the monitor is untouched", async (body, field) => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    const response = await client.ping(pingUrl, body, { secret });
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual([field]);
    expect((await client.getMonitor(monitorId)).status).toBe("idle");
  });
});

describe("the services' own backstop", () => {
  it("alerts refuses the one bad item of a TriggerAlert batch and folds the others", async () => {
    const { teamId, webhookId } = await client.setup();
    const item = (metadataJson: string): alerts.TriggerAlertItem => ({
      teamId,
      source: alerts.AlertSource.ALERT_SOURCE_WEBHOOK,
      sourceId: webhookId,
      title: "batch",
      description: "",
      severity: alerts.Severity.SEVERITY_UNSPECIFIED,
      metadataJson,
      groupKey: "",
      alertQuotaMonthly: 0,
      reopenWindowSeconds: 0,
      traceparent: "",
      repeatIntervalSeconds: 0,
      idempotencyKey: "",
      requestFingerprint: "",
    });
    const { results } = await callUnary(alertsClient, "triggerAlert", {
      items: [item(String.raw`{"k":"\u0000"}`), item('{"k":"fine"}'), item("[1]")],
    });
    expect(results.map((result) => result.outcome)).toEqual([
      alerts.TriggerOutcome.TRIGGER_OUTCOME_INVALID,
      alerts.TriggerOutcome.TRIGGER_OUTCOME_CREATED,
      alerts.TriggerOutcome.TRIGGER_OUTCOME_INVALID,
    ]);
    expect(results[0]?.violations.map((violation) => violation.field)).toEqual(["metadata.k"]);
  });

  it("monitors refuses the one bad item of a RecordPing batch and records the others", async () => {
    const { teamId, monitorId } = await client.setupMonitor();
    const item = (reason: string): monitors.RecordPingItem => ({
      monitorId,
      teamId,
      status: monitors.PingStatus.PING_STATUS_UP,
      reason,
      groupKey: "",
      metadataJson: "",
      method: "POST",
      receivedAt: new Date(),
      heartbeatQuotaMonthly: 0,
      alertQuotaMonthly: 0,
      idempotencyKey: "",
      requestFingerprint: "",
    });
    const { results } = await callUnary(
      monitorsClient,
      "recordPing",
      // (An unpaired surrogate cannot even cross gRPC: protobuf strings are UTF-8, so it arrives as U+FFFD.
      // The gateway is where it is refused; U+0000 does cross, and is refused here too.)
      { items: [item("ok"), item("bad\u0000")] },
    );
    expect(results.map((result) => result.outcome)).toEqual([
      monitors.RecordOutcome.RECORD_OUTCOME_RECORDED,
      monitors.RecordOutcome.RECORD_OUTCOME_INVALID,
    ]);
    expect(results[1]?.violations.map((violation) => violation.field)).toEqual(["reason"]);
  });
});
