// A reopen is a new episode: its page, and every later event of the alert, carry the reopening
// trigger's title, description, severity and metadata (docs/decisions.md, "Triggers").
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { type ReceivedRequest, receiversClosedAfterEach } from "../support/receiver.ts";
import { createChannel, deliveriesOf } from "./notifications-helpers.ts";

const stack = inject("stack");
const client = new Client(stack);
const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => db.end());
const receiver = receiversClosedAfterEach();

type AlertJson = {
  id: string;
  title: string;
  description: string;
  severity: string;
  metadata: Record<string, unknown> | null;
  status: string;
};

const alertOf = (request: ReceivedRequest | undefined) => request?.json.alert as AlertJson;
const eventTypes = (requests: ReceivedRequest[]) => requests.map((request) => request.json.type);
const ofType = (requests: ReceivedRequest[], type: string) => requests.filter((request) => request.json.type === type);

describe("a reopened alert", () => {
  it("of a monitor pages the new reason, and its reminder and resolve say it too", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor(
      {},
      { name: "Backups", repeatIntervalSeconds: 600 },
    );
    const hook = await receiver();
    const slack = await receiver();
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });
    await createChannel(client, teamId, { kind: "slack", url: slack.url() });

    await client.ping(pingUrl, { status: "down", reason: "disk full on /var/backups" }, { secret });
    await client.ping(pingUrl, { status: "up" }, { secret });
    const down = await client.ping(pingUrl, { status: "down", reason: "backup.sh exited 3" }, { secret });
    expect(down.body.monitor).toMatchObject({ status: "down" });
    expect((await client.getMonitor(monitorId)).lastReason).toBe("backup.sh exited 3");

    const requests = await hook.waitForCount(3);
    expect(eventTypes(requests)).toEqual(["alert.created", "alert.resolved", "alert.reopened"]);
    const created = alertOf(requests[0]);
    expect(created.title).toBe('Monitor "Backups" is down: disk full on /var/backups');
    const reopened = alertOf(requests[2]);
    expect(reopened).toMatchObject({
      id: created.id,
      status: "open",
      title: 'Monitor "Backups" is down: backup.sh exited 3',
      description: "A ping reported the monitor down: backup.sh exited 3",
      severity: "sev2",
      metadata: { reason: "backup.sh exited 3", monitor: { id: monitorId, name: "Backups" } },
    });
    expect(requests[2]?.raw.toString()).not.toContain("disk full");
    // Slack gets the alert's events in order too, as messages.
    const slackReopened = (await slack.waitForCount(3))[2];
    expect(slackReopened?.json.text).toContain("Alert reopened: Monitor");
    expect(slackReopened?.json.text).toContain("backup.sh exited 3");
    expect(JSON.stringify(slackReopened?.json)).not.toContain("disk full");

    // The alert as stored shows the new episode; the first one stays on its occurrence row.
    const stored = (await client.admin("GET", `/alerts/${created.id}`)).body.alert as AlertJson;
    expect(stored).toMatchObject({ title: reopened.title, description: reopened.description });
    const occurrences = (await client.admin("GET", `/alerts/${created.id}/occurrences`)).body.occurrences as {
      title: string;
    }[];
    expect(occurrences.map((occurrence) => occurrence.title)).toEqual([
      'Monitor "Backups" is down: backup.sh exited 3',
      'Monitor "Backups" is down: disk full on /var/backups',
    ]);

    // A reminder made due now goes out with the alert as it stands.
    await db.query("UPDATE alerts.alerts SET next_reminder_at = now() - interval '1 second' WHERE id = $1", [
      created.id,
    ]);
    const [reminder] = ofType(
      await hook.waitFor((all) => ofType(all, "alert.reminder").length > 0, "a reminder"),
      "alert.reminder",
    );
    expect(alertOf(reminder).title).toBe('Monitor "Backups" is down: backup.sh exited 3');

    await client.ping(pingUrl, { status: "up" }, { secret });
    const resolvedEvents = ofType(
      await hook.waitFor((all) => ofType(all, "alert.resolved").length === 2, "the second resolve"),
      "alert.resolved",
    );
    expect(alertOf(resolvedEvents[1])).toMatchObject({
      status: "resolved",
      title: 'Monitor "Backups" is down: backup.sh exited 3',
      metadata: { reason: "backup.sh exited 3" },
    });
  });

  it("of a webhook takes the reopening trigger's title, description, severity and metadata, and routes by it", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const pager = await receiver();
    const chat = await receiver();
    const pagerChannel = await createChannel(client, teamId, { kind: "webhook", url: pager.url() });
    const chatChannel = await createChannel(client, teamId, { kind: "webhook", url: chat.url() });
    const policy = await client.admin("PUT", `/teams/${teamId}/notification-policy`, {
      routes: [
        { severities: ["sev1"], channelIds: [pagerChannel.id] },
        { severities: ["sev3"], channelIds: [chatChannel.id] },
      ],
    });
    expect(policy.status).toBe(200);

    const first = await client.trigger(
      webhookUrl,
      {
        title: "Disk full on db-1",
        description: "Only 2% left on /var",
        severity: "sev1",
        metadata: { host: "db-1" },
        group_key: "disk",
      },
      { secret },
    );
    const alertId = first.body.alertId as string;
    expect((await client.admin("POST", `/alerts/${alertId}/resolve`)).status).toBe(200);
    const again = await client.trigger(
      webhookUrl,
      { title: "Disk filling on db-1", description: "12% left on /var", severity: "sev3", group_key: "disk" },
      { secret },
    );
    expect(again.body).toMatchObject({ status: "reopened", alertId, occurrenceCount: 2 });

    const [reopened] = await chat.waitForCount(1);
    expect(reopened?.json.type).toBe("alert.reopened");
    expect(alertOf(reopened)).toMatchObject({
      id: alertId,
      title: "Disk filling on db-1",
      description: "12% left on /var",
      severity: "sev3",
      metadata: null,
    });
    // The first episode was paged, and resolved, where sev1 goes; the reopen only where sev3 goes
    // (an event's deliveries are written together, so the chat's request shows them all).
    expect(eventTypes(await pager.waitForCount(2))).toEqual(["alert.created", "alert.resolved"]);
    expect(alertOf(pager.requests[1])).toMatchObject({ title: "Disk full on db-1", severity: "sev1" });
    const reopenDeliveries = (await deliveriesOf(client, alertId)).filter(
      (delivery) => delivery.eventType === "alert.reopened",
    );
    expect(reopenDeliveries.map((delivery) => delivery.channelId)).toEqual([chatChannel.id]);

    // A fold into the reopened alert changes none of it.
    const fold = await client.trigger(
      webhookUrl,
      { title: "Disk full on db-1 again", severity: "sev1", group_key: "disk" },
      { secret },
    );
    expect(fold.body.status).toBe("occurrence_added");
    const stored = (await client.admin("GET", `/alerts/${alertId}`)).body.alert as AlertJson;
    expect(stored).toMatchObject({ title: "Disk filling on db-1", severity: "sev3", metadata: null });
  });
});
