// Maintenance windows and silences: alerts are recorded, nobody is notified, the alert says why.
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);
const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => db.end());

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/** Outbox events of an alert: written in the alert's own transaction, so this is exact at once. */
const eventsOf = async (alertId: string) =>
  (
    await db.query<{ event_type: string }>("SELECT event_type FROM alerts.outbox WHERE alert_id = $1 ORDER BY id", [
      alertId,
    ])
  ).rows.map((row) => row.event_type);

async function silence(teamId: string, body: Record<string, unknown>) {
  const response = await client.admin("POST", `/teams/${teamId}/silences`, {
    name: "Maintenance",
    startsAt: at(-60_000),
    endsAt: at(HOUR),
    ...body,
  });
  if (response.status !== 201) throw new Error(`silence: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.silence as { id: string; active: boolean };
}

const alertOf = async (id: string) =>
  (await client.admin("GET", `/alerts/${id}`)).body.alert as { status: string; silencedBy: string | null };

describe("silences and maintenance windows", () => {
  it("a matching alert is recorded and shown as silenced by the silence, and notifies nobody", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const created = await silence(teamId, { matchers: { groupKeyPrefix: "db-" } });
    expect(created.active).toBe(true);

    const silenced = await client.trigger(webhookUrl, { title: "Replica lag", group_key: "db-replica" }, { secret });
    expect(silenced.body).toMatchObject({ status: "created", message: "Alert created and notifications triggered" });
    const silencedId = silenced.body.alertId as string;
    expect(await alertOf(silencedId)).toMatchObject({ status: "open", silencedBy: created.id });
    expect(await eventsOf(silencedId)).toEqual([]);

    const other = await client.trigger(webhookUrl, { title: "API down", group_key: "api" }, { secret });
    expect(await alertOf(other.body.alertId as string)).toMatchObject({ silencedBy: null });
    expect(await eventsOf(other.body.alertId as string)).toEqual(["alert.created"]);

    // Its resolve notifies nobody either; folds never did.
    await client.trigger(webhookUrl, { title: "Replica lag", group_key: "db-replica" }, { secret });
    await client.admin("POST", `/alerts/${silencedId}/resolve`);
    expect(await eventsOf(silencedId)).toEqual([]);
  });

  it("matchers: source ids and metadata equality must all hold", async () => {
    const { teamId, secret, webhookUrl, webhookId } = await client.setup();
    const second = await client.createWebhook(teamId, { name: "second" });
    const created = await silence(teamId, { matchers: { sourceIds: [webhookId], metadata: { env: "staging" } } });
    const hit = await client.trigger(webhookUrl, { title: "x", metadata: { env: "staging", host: "a" } }, { secret });
    expect(await alertOf(hit.body.alertId as string)).toMatchObject({ silencedBy: created.id });
    const production = await client.trigger(webhookUrl, { title: "x", metadata: { env: "production" } }, { secret });
    expect(await alertOf(production.body.alertId as string)).toMatchObject({ silencedBy: null });
    const otherSource = await client.trigger(
      second.webhookUrl,
      { title: "x", metadata: { env: "staging" } },
      { secret },
    );
    expect(await alertOf(otherSource.body.alertId as string)).toMatchObject({ silencedBy: null });
  });

  it("only while the window is open: a future window does nothing; a daily one applies every day", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const later = await silence(teamId, { startsAt: at(HOUR), endsAt: at(2 * HOUR) });
    expect(later.active).toBe(false);
    const notYet = await client.trigger(webhookUrl, { title: "x" }, { secret });
    expect(await alertOf(notYet.body.alertId as string)).toMatchObject({ silencedBy: null });

    // Opened three days ago at this time of day, for two hours: open now again.
    const daily = await silence(teamId, {
      name: "Nightly batch",
      startsAt: at(-3 * 24 * HOUR - HOUR),
      endsAt: at(-3 * 24 * HOUR + HOUR),
      recurrence: "daily",
    });
    expect(daily.active).toBe(true);
    const now = await client.trigger(webhookUrl, { title: "y" }, { secret });
    expect(await alertOf(now.body.alertId as string)).toMatchObject({ silencedBy: daily.id });

    const list = (await client.admin("GET", `/teams/${teamId}/silences`)).body.silences as { id: string }[];
    expect(list.map((entry) => entry.id)).toEqual([later.id, daily.id]);
  });

  it("a monitor's incident is silenced by its monitor id; a deleted silence applies no more", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor();
    const created = await silence(teamId, { matchers: { sourceIds: [monitorId] } });
    await client.ping(pingUrl, { status: "down", reason: "planned restart" }, { secret });
    const [incident] = (await client.admin("GET", `/teams/${teamId}/alerts`)).body.alerts as {
      id: string;
      silencedBy: string | null;
    }[];
    expect(incident?.silencedBy).toBe(created.id);
    expect(await eventsOf(incident?.id as string)).toEqual([]);

    expect((await client.admin("DELETE", `/teams/${teamId}/silences/${created.id}`)).status).toBe(204);
    expect((await client.admin("DELETE", `/teams/${teamId}/silences/${created.id}`)).status).toBe(204);
    const { webhookUrl } = await client.createWebhook(teamId);
    const after = await client.trigger(webhookUrl, { title: "after" }, { secret });
    expect(await alertOf(after.body.alertId as string)).toMatchObject({ silencedBy: null });
  });

  it("refuses windows that end before they start, and recurring windows as long as their period", async () => {
    const { teamId } = await client.createTeam();
    const backwards = await client.admin("POST", `/teams/${teamId}/silences`, {
      name: "x",
      startsAt: at(HOUR),
      endsAt: at(0),
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ code: "invalid_request", details: [{ field: "endsAt" }] });
    const tooLong = await client.admin("POST", `/teams/${teamId}/silences`, {
      name: "x",
      startsAt: at(0),
      endsAt: at(25 * HOUR),
      recurrence: "daily",
    });
    expect(tooLong.body).toMatchObject({ code: "invalid_request", details: [{ field: "endsAt" }] });
    const badRecurrence = await client.admin("POST", `/teams/${teamId}/silences`, {
      name: "x",
      startsAt: at(0),
      endsAt: at(HOUR),
      recurrence: "hourly",
    });
    expect(badRecurrence.status).toBe(400);
  });
});
