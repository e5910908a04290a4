// ?dryRun=true on triggers and pings, signed as usual, answers what would happen and writes nothing.
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { signedRequest } from "./signed-post.ts";

const stack = inject("stack");
const client = new Client(stack);
const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => db.end());

const DRY = "Dry run: nothing was written and nobody was notified.";

const dryTrigger = (webhookUrl: string, secret: string, body: unknown, query = "?dryRun=true") =>
  signedRequest(stack.baseUrl, `/api/alerts/trigger/${webhookUrl}${query}`, secret, body);
const dryPing = (pingUrl: string, secret: string, body?: unknown, query = "?dryRun=true") =>
  signedRequest(stack.baseUrl, `/api/ping/${pingUrl}${query}`, secret, body);

async function teamRows(teamId: string) {
  const { rows } = await db.query<{ alerts: number; occurrences: number; outbox: number; usage: number }>(
    `SELECT (SELECT count(*)::int FROM alerts.alerts WHERE team_id = $1) AS alerts,
            (SELECT count(*)::int FROM alerts.occurrences WHERE team_id = $1) AS occurrences,
            (SELECT count(*)::int FROM alerts.outbox WHERE team_id = $1) AS outbox,
            (SELECT coalesce(sum(used), 0)::int FROM alerts.alert_quota_usage WHERE team_id = $1) AS usage`,
    [teamId],
  );
  return rows[0];
}

async function monitorRows(monitorId: string) {
  const { rows } = await db.query<{ pings: number; actions: number; usage: number }>(
    `SELECT (SELECT count(*)::int FROM monitors.pings WHERE monitor_id = $1) AS pings,
            (SELECT count(*)::int FROM monitors.incident_actions WHERE monitor_id = $1) AS actions,
            (SELECT coalesce(sum(u.used), 0)::int FROM monitors.heartbeat_quota_usage u
              JOIN monitors.monitors m ON m.team_id = u.team_id WHERE m.id = $1) AS usage`,
    [monitorId],
  );
  return rows[0];
}

describe("trigger dry run", () => {
  it("a new key: created, with the group key and no alert id; nothing is written", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const before = await teamRows(teamId);
    const response = await dryTrigger(webhookUrl, secret, { title: "Disk full", group_key: "disk" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      dryRun: true,
      status: "created",
      message: DRY,
      groupKey: "disk",
      occurrenceCount: 1,
    });
    expect(await teamRows(teamId)).toEqual(before);
  });

  it("an open key: occurrence_added into that alert, with the count it would reach; the alert is unchanged", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const created = await client.trigger(webhookUrl, { title: "Disk full", group_key: "disk" }, { secret });
    const before = await teamRows(teamId);
    const response = await dryTrigger(webhookUrl, secret, { title: "Disk full", group_key: "disk" });
    expect(response.body).toEqual({
      dryRun: true,
      status: "occurrence_added",
      message: DRY,
      groupKey: "disk",
      alertId: created.body.alertId,
      occurrenceCount: 2,
    });
    expect(await teamRows(teamId)).toEqual(before);
    const real = await client.trigger(webhookUrl, { title: "Disk full", group_key: "disk" }, { secret });
    expect(real.body).toMatchObject({ status: "occurrence_added", occurrenceCount: 2 });
  });

  it("a recently resolved key: reopened", async () => {
    const { secret, webhookUrl } = await client.setup();
    const created = await client.trigger(webhookUrl, { title: "x", group_key: "k" }, { secret });
    await client.admin("POST", `/alerts/${created.body.alertId as string}/resolve`);
    const response = await dryTrigger(webhookUrl, secret, { title: "x", group_key: "k" });
    expect(response.body).toMatchObject({ status: "reopened", alertId: created.body.alertId, occurrenceCount: 2 });
  });

  it("a filter rule that fails: filtered, with the rule as reason", async () => {
    const { secret, webhookUrl } = await client.setup(
      {},
      { filterRules: [{ field: "metadata.env", op: "==", value: "production" }] },
    );
    const response = await dryTrigger(webhookUrl, secret, { title: "x", metadata: { env: "staging" } });
    expect(response.body).toEqual({
      dryRun: true,
      status: "filtered",
      message: DRY,
      groupKey: null,
      reason: 'metadata.env == "production"',
    });
  });

  it("a team out of alert quota: quota_exhausted (200), a fold still fits", async () => {
    const { teamId, secret, webhookUrl } = await client.setup({ alertQuotaMonthly: 1 });
    await client.trigger(webhookUrl, { title: "x", group_key: "one" }, { secret });
    const before = await teamRows(teamId);
    const refused = await dryTrigger(webhookUrl, secret, { title: "x", group_key: "two" });
    expect(refused.body).toMatchObject({ dryRun: true, status: "quota_exhausted", groupKey: "two" });
    const fold = await dryTrigger(webhookUrl, secret, { title: "x", group_key: "one" });
    expect(fold.body).toMatchObject({ status: "occurrence_added", occurrenceCount: 2 });
    expect(await teamRows(teamId)).toEqual(before);
  });

  it("checks everything a trigger checks first, and only dryRun=true|false", async () => {
    const { secret, webhookUrl } = await client.setup();
    const unsigned = await signedRequest(
      stack.baseUrl,
      `/api/alerts/trigger/${webhookUrl}?dryRun=true`,
      secret,
      { title: "x" },
      { signature: null },
    );
    expect([unsigned.status, unsigned.body.error]).toEqual([401, "Missing webhook signature"]);
    const invalid = await dryTrigger(webhookUrl, secret, { severity: "sev9" });
    expect([invalid.status, invalid.body.code]).toEqual([400, "invalid_request"]);
    const bad = await dryTrigger(webhookUrl, secret, { title: "x" }, "?dryRun=1");
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: "query.dryRun", message: "dryRun must be true or false, given once." }]);
    const off = await dryTrigger(webhookUrl, secret, { title: "real" }, "?dryRun=false");
    expect(off.status).toBe(201);
  });
});

describe("ping dry run", () => {
  it("a down ping on an up monitor: the incident it would raise and its key; nothing is written", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    await client.ping(pingUrl, undefined, { secret });
    const before = await monitorRows(monitorId);
    const response = await dryPing(pingUrl, secret, { status: "down", reason: "disk full" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      dryRun: true,
      outcome: "recorded",
      message: DRY,
      monitor: { name: "Nightly backup", status: "down", monitoringActive: true },
      pingStatus: "down",
      incident: "raise",
      groupKey: `monitor:${monitorId}`,
      reason: "disk full",
    });
    expect(await monitorRows(monitorId)).toEqual(before);
    expect(await client.getMonitor(monitorId)).toMatchObject({ status: "up", lastReason: null });
  });

  it("an up ping on a down monitor would resolve; a GET dry run is an up ping", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    await client.ping(pingUrl, { status: "down", reason: "x", group_key: "db" }, { secret });
    const response = await signedRequest(stack.baseUrl, `/api/ping/${pingUrl}?dryRun=true`, secret, undefined, {
      method: "GET",
    });
    expect(response.body).toMatchObject({
      outcome: "recorded",
      monitor: { status: "up" },
      pingStatus: "up",
      incident: "resolve",
      reason: null,
    });
    expect(await client.getMonitor(monitorId)).toMatchObject({ status: "down" });
  });

  it("dry runs do not use up the ping rate limit (only accepted pings count)", async () => {
    const { secret, pingUrl } = await client.setupMonitor();
    for (let i = 0; i < 12; i++) expect((await dryPing(pingUrl, secret)).status).toBe(200);
    expect((await client.ping(pingUrl, undefined, { secret })).status).toBe(200);
  });

  it("other query parameters are still refused, each named", async () => {
    const { secret, pingUrl } = await client.setupMonitor();
    const response = await dryPing(pingUrl, secret, undefined, "?dryRun=true&status=down");
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "invalid_request", error: UNKNOWN("status") });
    expect(response.body.details).toEqual([{ field: "query.status", message: UNKNOWN("status") }]);
  });
});

const UNKNOWN = (name: string) => `Unknown query parameter ${name}: the only one accepted is dryRun.`;

describe("a misspelt dry run", () => {
  it("is refused on triggers, resolves, pings and start signals, naming the parameter, and nothing is written", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const { monitorId, pingUrl, secret: monitorSecret } = await client.setupMonitor();
    const alertsBefore = await teamRows(teamId);
    const pingsBefore = await monitorRows(monitorId);
    const paths = [
      [`/api/alerts/trigger/${webhookUrl}`, secret, { title: "x", group_key: "k" }],
      [`/api/alerts/resolve/${webhookUrl}`, secret, { group_key: "k" }],
      [`/api/ping/${pingUrl}`, monitorSecret, { status: "down" }],
      [`/api/ping/${pingUrl}/start`, monitorSecret, undefined],
    ] as const;
    for (const [path, key, body] of paths) {
      for (const [query, name] of [
        ["?dryrun=true", "dryrun"],
        ["?dryRun[]=true", "dryRun[]"],
        ["?dry_run=1&dryRun=true", "dry_run"],
      ] as const) {
        const response = await signedRequest(stack.baseUrl, `${path}${query}`, key, body);
        expect([path, query, response.status, response.body.code, response.body.error]).toEqual([
          path,
          query,
          400,
          "invalid_request",
          UNKNOWN(name),
        ]);
        expect(response.body.details).toEqual([{ field: `query.${name}`, message: UNKNOWN(name) }]);
      }
    }
    expect(await teamRows(teamId)).toEqual(alertsBefore);
    expect(await monitorRows(monitorId)).toEqual(pingsBefore);
  });
});
