// Idempotency-Key on triggers, resolves and pings: a request sent again under its key is answered
// as the first was, and applied once (Stripe's convention, kept 24 hours).
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client, sign } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);
const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => db.end());

type Answer = { status: number; replayed: string | null; body: Record<string, unknown> };

async function send(path: string, secret: string, body: unknown, key?: string): Promise<Answer> {
  const raw = body === undefined ? "" : JSON.stringify(body);
  const headers: Record<string, string> = { "x-webhook-signature": sign(secret, raw) };
  if (raw !== "") headers["content-type"] = "application/json";
  if (key !== undefined) headers["idempotency-key"] = key;
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method: "POST",
    headers,
    ...(raw === "" ? {} : { body: raw }),
  });
  return {
    status: response.status,
    replayed: response.headers.get("idempotent-replayed"),
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function counts(teamId: string) {
  const { rows } = await db.query<{ alerts: number; occurrences: number; usage: number; pings: number }>(
    `SELECT (SELECT count(*)::int FROM alerts.alerts WHERE team_id = $1) AS alerts,
            (SELECT count(*)::int FROM alerts.occurrences WHERE team_id = $1) AS occurrences,
            (SELECT coalesce(sum(used), 0)::int FROM alerts.alert_quota_usage WHERE team_id = $1) AS usage,
            (SELECT count(*)::int FROM monitors.pings WHERE team_id = $1) AS pings`,
    [teamId],
  );
  return rows[0];
}

describe("Idempotency-Key on triggers", () => {
  it("answers a repeat as the first was (Idempotent-Replayed: true), and applies it once", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const path = `/api/alerts/trigger/${webhookUrl}`;
    const key = randomUUID();
    // No group key: without the Idempotency-Key every copy would be a new alert.
    const first = await send(path, secret, { title: "Deploy failed" }, key);
    expect([first.status, first.body.status, first.replayed]).toEqual([201, "created", null]);
    for (let i = 0; i < 3; i++) {
      const again = await send(path, secret, { title: "Deploy failed" }, key);
      expect([again.status, again.replayed]).toEqual([201, "true"]);
      expect(again.body).toEqual(first.body);
    }
    expect(await counts(teamId)).toMatchObject({ alerts: 1, occurrences: 1, usage: 1 });
    // Another key is another request.
    const other = await send(path, secret, { title: "Deploy failed" }, randomUUID());
    expect([other.status, other.body.status, other.replayed]).toEqual([201, "created", null]);
    expect(other.body.alertId).not.toBe(first.body.alertId);
  });

  it("takes concurrent copies of one request once, whichever arrives first", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        send(`/api/alerts/trigger/${webhookUrl}`, secret, { title: "Disk full", group_key: "disk" }, key),
      ),
    );
    expect(new Set(answers.map((answer) => JSON.stringify([answer.status, answer.body])))).toEqual(
      new Set([JSON.stringify([201, answers[0]?.body])]),
    );
    expect(answers.filter((answer) => answer.replayed === null)).toHaveLength(1);
    expect(await counts(teamId)).toMatchObject({ alerts: 1, occurrences: 1 });
  });

  it("refuses a key sent with another body or to another endpoint (422), applying nothing", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const key = randomUUID();
    await send(`/api/alerts/trigger/${webhookUrl}`, secret, { title: "One" }, key);
    const reused = await send(`/api/alerts/trigger/${webhookUrl}`, secret, { title: "Two" }, key);
    expect([reused.status, reused.body.code]).toEqual([422, "idempotency_key_reused"]);
    expect(reused.body.error).toMatch(/another request/);
    const resolve = await send(`/api/alerts/resolve/${webhookUrl}`, secret, { group_key: "x" }, key);
    expect([resolve.status, resolve.body.code]).toEqual([422, "idempotency_key_reused"]);
    expect(await counts(teamId)).toMatchObject({ alerts: 1, occurrences: 1 });
  });

  it("keeps no answer for a request that applied nothing: a retry after the quota is raised goes through", async () => {
    const { teamId, secret, webhookUrl } = await client.setup({ alertQuotaMonthly: 1 });
    await send(`/api/alerts/trigger/${webhookUrl}`, secret, { title: "first" });
    const key = randomUUID();
    const refused = await send(`/api/alerts/trigger/${webhookUrl}`, secret, { title: "second" }, key);
    expect([refused.status, refused.body.code]).toEqual([429, "alert_quota_exhausted"]);
    await client.admin("PATCH", `/teams/${teamId}`, { alertQuotaMonthly: 10 });
    const retried = await send(`/api/alerts/trigger/${webhookUrl}`, secret, { title: "second" }, key);
    expect([retried.status, retried.body.status, retried.replayed]).toEqual([201, "created", null]);
  });

  it("refuses a key that is not 1 to 255 visible ASCII characters (400 naming the header)", async () => {
    const { secret, webhookUrl } = await client.setup();
    for (const key of ["", "with space", "x".repeat(256), "é"]) {
      const response = await fetch(`${stack.baseUrl}/api/alerts/trigger/${webhookUrl}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-webhook-signature": sign(secret, '{"title":"x"}'),
          "idempotency-key": key,
        },
        body: '{"title":"x"}',
      });
      const body = (await response.json()) as { code: string; details: { field: string }[] };
      expect([key, response.status, body.code, body.details[0]?.field]).toEqual([
        key,
        400,
        "invalid_request",
        "headers.idempotency-key",
      ]);
    }
  });
});

describe("Idempotency-Key on resolves and pings", () => {
  it("a resolve repeated under its key answers 'resolved' again, not 'already_resolved'", async () => {
    const { secret, webhookUrl } = await client.setup();
    await send(`/api/alerts/trigger/${webhookUrl}`, secret, { title: "x", group_key: "k" });
    const key = randomUUID();
    const first = await send(`/api/alerts/resolve/${webhookUrl}`, secret, { group_key: "k" }, key);
    const again = await send(`/api/alerts/resolve/${webhookUrl}`, secret, { group_key: "k" }, key);
    expect([first.body.status, again.body.status, again.replayed]).toEqual(["resolved", "resolved", "true"]);
    expect(again.body).toEqual(first.body);
    const plain = await send(`/api/alerts/resolve/${webhookUrl}`, secret, { group_key: "k" });
    expect(plain.body.status).toBe("already_resolved");
  });

  it("a ping repeated under its key is stored, counted and paged once, and does not use the ping window", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor();
    const key = randomUUID();
    const down = { status: "down", reason: "disk full" };
    const first = await send(`/api/ping/${pingUrl}`, secret, down, key);
    expect([first.status, first.body.monitor, first.replayed]).toEqual([
      200,
      { name: "Nightly backup", status: "down", monitoringActive: true },
      null,
    ]);
    for (let i = 0; i < 12; i++) {
      const again = await send(`/api/ping/${pingUrl}`, secret, down, key);
      expect([again.status, again.replayed]).toEqual([200, "true"]);
      expect(again.body).toEqual(first.body);
    }
    expect(await counts(teamId)).toMatchObject({ pings: 1, alerts: 1 });
    const usage = await client.admin("GET", `/teams/${teamId}/usage`);
    expect(usage.body.usage).toMatchObject({ heartbeats: { used: 1 } });
    const reused = await send(`/api/ping/${pingUrl}/start`, secret, undefined, key);
    expect([reused.status, reused.body.code]).toEqual([422, "idempotency_key_reused"]);
    // Nine more fit in the minute: the repeats and the refused one took no place in it.
    for (let i = 0; i < 9; i++) expect((await send(`/api/ping/${pingUrl}`, secret, undefined)).status).toBe(200);
    expect((await client.admin("GET", `/monitors/${monitorId}/pings`)).body.pings).toHaveLength(10);
  });
});
