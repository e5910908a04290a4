// POST /api/alerts/resolve/{webhookUrl}, signed like a trigger, resolves by group key.
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { Receiver } from "../support/receiver.ts";
import { createChannel, waitForDeliveries } from "./notifications-helpers.ts";
import { signedRequest } from "./signed-post.ts";

const stack = inject("stack");
const client = new Client(stack);
const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => db.end());

const resolve = (webhookUrl: string, secret: string, body: unknown, query = "", options = {}) =>
  signedRequest(stack.baseUrl, `/api/alerts/resolve/${webhookUrl}${query}`, secret, body, options);

const resolvedEvents = async (alertId: string) =>
  (
    await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM alerts.outbox WHERE alert_id = $1 AND event_type = 'alert.resolved'",
      [alertId],
    )
  ).rows[0]?.n;

describe("resolve by group key", () => {
  it("resolves the open alert with the key, and answers already_resolved after (idempotent)", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const created = await client.trigger(webhookUrl, { title: "Disk full", group_key: "disk-db-1" }, { secret });
    expect(created.status).toBe(201);
    const alertId = created.body.alertId as string;
    await client.trigger(webhookUrl, { title: "Disk full", group_key: "disk-db-1" }, { secret });

    const first = await resolve(webhookUrl, secret, { group_key: "disk-db-1" });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      status: "resolved",
      message: "Alert resolved and notifications triggered",
      groupKey: "disk-db-1",
      alertId,
      occurrenceCount: 2,
    });
    const alert = await client.admin("GET", `/alerts/${alertId}`);
    expect(alert.body.alert).toMatchObject({ status: "resolved", resolvedAt: expect.any(String) });

    const again = await resolve(webhookUrl, secret, { group_key: "disk-db-1" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      status: "already_resolved",
      message: "Alert already resolved",
      groupKey: "disk-db-1",
      alertId,
      occurrenceCount: 2,
    });
    expect(await resolvedEvents(alertId)).toBe(1);
    // The team's list agrees: nothing open.
    const open = await client.admin("GET", `/teams/${teamId}/alerts?status=open`);
    expect(open.body.alerts).toEqual([]);
  });

  it("answers no_alert (200, not 404) for a key the team never used", async () => {
    const { secret, webhookUrl } = await client.setup();
    const response = await resolve(webhookUrl, secret, { group_key: "never-seen" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: "no_alert",
      message: "No alert has this group key",
      groupKey: "never-seen",
    });
  });

  it("resolves an acknowledged alert, and a later trigger reopens it", async () => {
    const { secret, webhookUrl } = await client.setup();
    const created = await client.trigger(webhookUrl, { title: "Queue stuck", group_key: "queue" }, { secret });
    const alertId = created.body.alertId as string;
    expect((await client.admin("POST", `/alerts/${alertId}/acknowledge`)).status).toBe(200);
    expect((await resolve(webhookUrl, secret, { group_key: "queue" })).body.status).toBe("resolved");
    const reopened = await client.trigger(webhookUrl, { title: "Queue stuck", group_key: "queue" }, { secret });
    expect(reopened.body).toMatchObject({ status: "reopened", alertId, occurrenceCount: 2 });
  });

  it("resolves the team's alert whichever source opened it, never another team's", async () => {
    const one = await client.setup();
    const other = await client.setup();
    const hook2 = await client.createWebhook(one.teamId, { name: "second" });
    const created = await client.trigger(one.webhookUrl, { title: "x", group_key: "shared" }, { secret: one.secret });
    const foreign = await client.trigger(
      other.webhookUrl,
      { title: "x", group_key: "shared" },
      { secret: other.secret },
    );

    const response = await resolve(hook2.webhookUrl, one.secret, { group_key: "shared" });
    expect(response.body).toMatchObject({ status: "resolved", alertId: created.body.alertId });
    const untouched = await client.admin("GET", `/alerts/${foreign.body.alertId as string}`);
    expect(untouched.body.alert).toMatchObject({ status: "open" });
  });

  it("concurrent resolves of one key: exactly one resolved, one resolved event", async () => {
    const { secret, webhookUrl } = await client.setup();
    const created = await client.trigger(webhookUrl, { title: "Flapping", group_key: "flap" }, { secret });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => resolve(webhookUrl, secret, { group_key: "flap" })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    const statuses = answers.map((answer) => answer.body.status).sort();
    expect(statuses).toEqual([...Array(7).fill("already_resolved"), "resolved"]);
    expect(await resolvedEvents(created.body.alertId as string)).toBe(1);
  });

  it("notifies the team's channels with alert.resolved, as a resolve from the admin API does", async () => {
    const receiver = await Receiver.start();
    try {
      const { teamId, secret, webhookUrl } = await client.setup();
      await createChannel(client, teamId, { kind: "webhook", url: receiver.url("/pulsegate") });
      const created = await client.trigger(webhookUrl, { title: "Backup failed", group_key: "backup" }, { secret });
      const alertId = created.body.alertId as string;
      await resolve(webhookUrl, secret, { group_key: "backup" });
      const deliveries = await waitForDeliveries(
        client,
        alertId,
        (list) => list.length === 2 && list.every((delivery) => delivery.status === "delivered"),
        "created and resolved delivered",
      );
      expect(deliveries.map((delivery) => delivery.eventType).sort()).toEqual(["alert.created", "alert.resolved"]);
      const resolvedBody = receiver.requests.find((request) => request.json.type === "alert.resolved")?.json;
      expect(resolvedBody).toMatchObject({ alert: { id: alertId, status: "resolved", groupKey: "backup" } });
    } finally {
      await receiver.close();
    }
  });

  it("?dryRun=true says what would happen and changes nothing", async () => {
    const { secret, webhookUrl } = await client.setup();
    const created = await client.trigger(webhookUrl, { title: "x", group_key: "dry" }, { secret });
    const alertId = created.body.alertId as string;
    const preview = await resolve(webhookUrl, secret, { group_key: "dry" }, "?dryRun=true");
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      status: "resolved",
      message: "Dry run: nothing was written and nobody was notified.",
      groupKey: "dry",
      alertId,
      occurrenceCount: 1,
      dryRun: true,
    });
    expect((await client.admin("GET", `/alerts/${alertId}`)).body.alert).toMatchObject({ status: "open" });
    expect(await resolvedEvents(alertId)).toBe(0);
  });

  it("checks like a trigger: signature, webhook, body", async () => {
    const { secret, webhookUrl } = await client.setup();
    const missing = await resolve(webhookUrl, secret, { group_key: "k" }, "", { signature: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: "Missing webhook signature", code: "missing_signature" });
    const wrong = await resolve(webhookUrl, secret, { group_key: "k" }, "", { signature: "0".repeat(64) });
    expect([wrong.status, wrong.body.code]).toEqual([401, "invalid_signature"]);
    const unknown = await resolve("no-such-webhook", secret, { group_key: "k" });
    expect([unknown.status, unknown.body.code]).toEqual([404, "webhook_not_found"]);
    const noKey = await resolve(webhookUrl, secret, { title: "x" });
    expect(noKey.status).toBe(400);
    expect(noKey.body).toMatchObject({ code: "invalid_request", details: [{ field: "group_key" }] });
    const empty = await resolve(webhookUrl, secret, { group_key: "" });
    expect(empty.body).toMatchObject({ code: "invalid_request", details: [{ field: "group_key" }] });
    const form = await resolve(webhookUrl, secret, "group_key=k", "", {
      contentType: "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(415);
    const badDryRun = await resolve(webhookUrl, secret, { group_key: "k" }, "?dryRun=yes");
    expect(badDryRun.body).toMatchObject({ code: "invalid_request", details: [{ field: "query.dryRun" }] });
  });

  it("a disabled webhook is unknown (404)", async () => {
    const { secret, webhookId, webhookUrl } = await client.setup();
    await client.admin("PATCH", `/webhooks/${webhookId}`, { enabled: false });
    // The gateway keeps webhook look-ups WEBHOOK_CACHE_MS (200 ms in tests).
    const response = await eventually(async () => {
      const answer = await resolve(webhookUrl, secret, { group_key: "k" });
      return answer.status === 404 ? answer : undefined;
    });
    expect(response.body.code).toBe("webhook_not_found");
  });
});
