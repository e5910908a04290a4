// Reminders (alert.reminder) every N seconds while an alert stays open and unacknowledged.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { Receiver } from "../support/receiver.ts";
import { createChannel, deliveriesOf } from "./notifications-helpers.ts";

const stack = inject("stack");
const client = new Client(stack);
const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver.close();
  await db.end();
});

type AlertJson = {
  id: string;
  status: string;
  repeatIntervalSeconds: number | null;
  nextReminderAt: string | null;
  remindersSent: number;
  firstSeenAt: string;
};

const alertOf = async (id: string) => (await client.admin("GET", `/alerts/${id}`)).body.alert as AlertJson;
/** Time passes: the reminder is made due now (the reminder pass reads the database's clock). */
const makeDue = (id: string) =>
  db.query("UPDATE alerts.alerts SET next_reminder_at = now() - interval '1 second' WHERE id = $1", [id]);
const remindersTo = (alertId: string) =>
  receiver.requests.filter(
    (request) => request.json.type === "alert.reminder" && (request.json.alert as { id: string }).id === alertId,
  );

async function remindingTeam(repeatIntervalSeconds = 60) {
  const setup = await client.setup({}, { repeatIntervalSeconds });
  await createChannel(client, setup.teamId, { kind: "webhook", url: receiver.url(`/hooks/${setup.teamId}`) });
  return setup;
}

describe("reminders", () => {
  it("a webhook's interval is shown, and an alert it opens is due a reminder that long after", async () => {
    const { secret, webhookUrl, webhookId } = await remindingTeam(120);
    expect((await client.admin("GET", `/webhooks/${webhookId}`)).body.webhook).toMatchObject({
      repeatIntervalSeconds: 120,
    });
    const created = await client.trigger(webhookUrl, { title: "Disk full", group_key: "disk" }, { secret });
    const alert = await alertOf(created.body.alertId as string);
    expect(alert).toMatchObject({ repeatIntervalSeconds: 120, remindersSent: 0 });
    expect(Date.parse(alert.nextReminderAt as string) - Date.parse(alert.firstSeenAt)).toBe(120_000);
  });

  it("a due reminder notifies the channels with alert.reminder and schedules the next one", async () => {
    const { secret, webhookUrl } = await remindingTeam(60);
    const created = await client.trigger(webhookUrl, { title: "Queue stuck", group_key: "queue" }, { secret });
    const alertId = created.body.alertId as string;
    await makeDue(alertId);
    const [reminder] = await receiver
      .waitFor(
        (requests) =>
          requests.some((r) => r.json.type === "alert.reminder" && (r.json.alert as { id: string }).id === alertId),
        "a reminder",
        20_000,
      )
      .then(() => remindersTo(alertId));
    expect(reminder?.headers["x-pulsegate-event"]).toBe("alert.reminder");
    expect(reminder?.json).toMatchObject({
      type: "alert.reminder",
      alert: { id: alertId, status: "open", remindersSent: 1 },
    });
    const after = await alertOf(alertId);
    expect(after.remindersSent).toBe(1);
    expect(Date.parse(after.nextReminderAt as string)).toBeGreaterThan(Date.now() + 30_000);
    const deliveries = await eventually(async () => {
      const list = await deliveriesOf(client, alertId);
      return list.some((delivery) => delivery.eventType === "alert.reminder" && delivery.status === "delivered")
        ? list
        : undefined;
    });
    expect(deliveries.map((delivery) => delivery.eventType).sort()).toEqual(["alert.created", "alert.reminder"]);
  });

  it("acknowledging or resolving stops reminders; a fold does not restart them", async () => {
    const { secret, webhookUrl } = await remindingTeam(60);
    const acked = (await client.trigger(webhookUrl, { title: "a", group_key: "acked" }, { secret })).body
      .alertId as string;
    const resolved = (await client.trigger(webhookUrl, { title: "r", group_key: "resolved" }, { secret })).body
      .alertId as string;
    const sentinel = (await client.trigger(webhookUrl, { title: "s", group_key: "sentinel" }, { secret })).body
      .alertId as string;
    await client.admin("POST", `/alerts/${acked}/acknowledge`);
    await client.admin("POST", `/alerts/${resolved}/resolve`);
    await client.trigger(webhookUrl, { title: "a", group_key: "acked" }, { secret });
    expect(await alertOf(acked)).toMatchObject({ status: "acknowledged", nextReminderAt: null });
    expect(await alertOf(resolved)).toMatchObject({ status: "resolved", nextReminderAt: null });
    // The sentinel's reminder shows a pass has run over all of them.
    await makeDue(sentinel);
    await eventually(async () => (remindersTo(sentinel).length > 0 ? true : undefined), { timeoutMs: 20_000 });
    expect(remindersTo(acked)).toEqual([]);
    expect(remindersTo(resolved)).toEqual([]);
  });

  it("a reopened alert reminds afresh", async () => {
    const { secret, webhookUrl } = await remindingTeam(300);
    const alertId = (await client.trigger(webhookUrl, { title: "x", group_key: "again" }, { secret })).body
      .alertId as string;
    await makeDue(alertId);
    await eventually(async () => ((await alertOf(alertId)).remindersSent === 1 ? true : undefined), {
      timeoutMs: 20_000,
    });
    await client.admin("POST", `/alerts/${alertId}/resolve`);
    const reopened = await client.trigger(webhookUrl, { title: "x", group_key: "again" }, { secret });
    expect(reopened.body.status).toBe("reopened");
    const alert = await alertOf(alertId);
    expect(alert).toMatchObject({ status: "open", remindersSent: 0, repeatIntervalSeconds: 300 });
    expect(alert.nextReminderAt).not.toBeNull();
  });

  it("a webhook without an interval never reminds; one can be set and removed later", async () => {
    const { secret, webhookUrl, webhookId } = await client.setup();
    const alertId = (await client.trigger(webhookUrl, { title: "x" }, { secret })).body.alertId as string;
    expect(await alertOf(alertId)).toMatchObject({ repeatIntervalSeconds: null, nextReminderAt: null });
    const set = await client.admin("PATCH", `/webhooks/${webhookId}`, { repeatIntervalSeconds: 3600 });
    expect(set.body.webhook).toMatchObject({ repeatIntervalSeconds: 3600 });
    const unset = await client.admin("PATCH", `/webhooks/${webhookId}`, { repeatIntervalSeconds: 0 });
    expect(unset.body.webhook).toMatchObject({ repeatIntervalSeconds: null });
    const tooOften = await client.admin("PATCH", `/webhooks/${webhookId}`, { repeatIntervalSeconds: 30 });
    expect(tooOften.status).toBe(400);
    expect(tooOften.body).toMatchObject({ code: "invalid_request", details: [{ field: "repeatIntervalSeconds" }] });
  });

  it("a monitor's interval carries to its incident alert", async () => {
    const { teamId, secret, pingUrl, monitorId, monitor } = await client.setupMonitor(
      {},
      { repeatIntervalSeconds: 600 },
    );
    expect(monitor).toMatchObject({ repeatIntervalSeconds: 600 });
    await client.ping(pingUrl, { status: "down", reason: "disk full" }, { secret });
    const alerts = (await client.admin("GET", `/teams/${teamId}/alerts`)).body.alerts as (AlertJson & {
      sourceId: string;
    })[];
    expect(alerts.find((alert) => alert.sourceId === monitorId)).toMatchObject({
      repeatIntervalSeconds: 600,
      remindersSent: 0,
    });
    const refused = await client.admin("POST", `/teams/${teamId}/monitors`, { name: "x", repeatIntervalSeconds: 59 });
    expect(refused.body).toMatchObject({ code: "invalid_request", details: [{ field: "repeatIntervalSeconds" }] });
  });
});
