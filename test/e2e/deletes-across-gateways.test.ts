// Deleting a monitor, a webhook or a team through the admin API: 204, and from that answer on its
// pings, triggers and badge answer 404 through every gateway, however long their caches are set to
// keep a look-up (here a minute and more: only the announcement can explain a 404). What goes with it
// goes in the background, in batches; what is kept (a webhook's alerts, a team's audit log) stays.
// A monitor changed through one gateway (its name, its replay protection) is seen at once by the
// other too. (A deleted webhook's trigger is also refused by alerts itself, whatever a cache held.)
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, sign } from "../support/client.ts";
import { signedIn, signIn } from "../support/dashboard-session.ts";
import { eventually } from "../support/eventually.ts";
import { Receiver } from "../support/receiver.ts";
import { Stack } from "../support/stack.ts";
import { createChannel } from "./notifications-helpers.ts";

let stack: Stack;
let one: Client;
let two: Client;
let db: pg.Pool;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  stack = await Stack.create({
    databaseName: `pulsegate_deletes_${process.pid}`,
    env: {
      // Every look-up cache as long as it may be: a delete that waited for them would take a minute.
      WEBHOOK_CACHE_MS: "60000",
      MONITOR_CACHE_MS: "600000",
      VERIFIED_CACHE_MS: "60000",
      API_KEY_CACHE_MS: "60000",
      VERIFIER_CACHE_MS: "60000",
      PURGE_INTERVAL_MS: "200",
      DB_POOL_MAX: "3",
    },
  });
  one = new Client(stack.info);
  two = new Client({ ...stack.info, baseUrl: await stack.startGatewayReplica("gateway-2") });
  db = new pg.Pool({ connectionString: stack.info.databaseUrl, max: 2 });
}, 120_000);

afterAll(async () => {
  for (const close of closers) await close();
  await db?.end();
  await stack?.destroy();
});

const badgeOf = async (client: Client, badgeUrl: string) =>
  (await fetch(`${client.stack.baseUrl}${new URL(badgeUrl).pathname}`)).status;

async function count(sql: string, values: unknown[]): Promise<number> {
  return (await db.query<{ n: number }>(sql, values)).rows[0]?.n ?? -1;
}

/** Waits until `sql` counts none: the background purge has removed the rows. */
const purged = (sql: string, values: unknown[], what: string) =>
  eventually(async () => ((await count(sql, values)) === 0 ? true : undefined), { timeoutMs: 20_000, what });

async function auditActions(teamId: string): Promise<string[]> {
  const log = await one.admin("GET", `/teams/${teamId}/audit-log`);
  expect(log.status).toBe(200);
  return (log.body.entries as { action: string }[]).map((entry) => entry.action);
}

describe("deleting a monitor", () => {
  it("answers 204; its pings and badge are 404 at once through both gateways; its pings are purged, its alerts kept", async () => {
    const { teamId, secret, monitorId, pingUrl, monitor } = await one.setupMonitor();
    const badgeUrl = (monitor as unknown as { badgeUrl: string }).badgeUrl;
    // Both gateways know the monitor (and the badge) before it is deleted.
    for (const client of [one, two]) {
      expect(
        (await client.ping(pingUrl, { status: "down", reason: `via ${client.stack.baseUrl}` }, { secret })).status,
      ).toBe(200);
      expect(await badgeOf(client, badgeUrl)).toBe(200);
    }
    const alerts = await one.admin("GET", `/teams/${teamId}/alerts`);
    expect((alerts.body.alerts as unknown[]).length).toBe(1);

    const deleted = await one.admin("DELETE", `/monitors/${monitorId}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toEqual({});

    const gone = await one.ping(pingUrl, undefined, { secret });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("monitor_not_found");
    expect(await badgeOf(one, badgeUrl)).toBe(404);
    await eventually(async () => ((await two.ping(pingUrl, undefined, { secret })).status === 404 ? true : undefined), {
      timeoutMs: 1_000,
      what: "a 404 through the other gateway",
    });
    expect(await badgeOf(two, badgeUrl)).toBe(404);

    expect((await one.admin("GET", `/monitors/${monitorId}`)).status).toBe(404);
    expect((await one.admin("GET", `/teams/${teamId}/monitors`)).body.monitors).toEqual([]);
    const again = await one.admin("DELETE", `/monitors/${monitorId}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("monitor_not_found");

    await purged("SELECT count(*)::int AS n FROM monitors.pings WHERE monitor_id = $1", [monitorId], "pings purged");
    await purged("SELECT count(*)::int AS n FROM monitors.monitors WHERE id = $1", [monitorId], "monitor purged");
    // Its incident alert is the team's history: kept.
    expect((await one.admin("GET", `/teams/${teamId}/alerts`)).body.alerts).toHaveLength(1);
    // Its name is free again.
    expect((await one.createMonitor(teamId, { name: monitor.name })).name).toBe(monitor.name);
    expect(await auditActions(teamId)).toContain("monitor.delete");
  });
});

describe("changing a monitor", () => {
  it("applies at once through the other gateway, which had it cached for minutes", async () => {
    const { monitorId, pingUrl, secret } = await one.setupMonitor();
    expect((await two.ping(pingUrl, undefined, { secret })).status).toBe(200);
    const changed = await one.admin("PATCH", `/monitors/${monitorId}`, { requireTimestamp: true, name: "Renamed" });
    expect(changed.status).toBe(200);
    await eventually(
      async () => {
        const refused = await two.ping(pingUrl, undefined, { secret });
        return refused.status === 401 && refused.body.code === "missing_timestamp" ? true : undefined;
      },
      { timeoutMs: 1_000, what: "the other gateway refusing an untimestamped ping" },
    );
  });
});

describe("deleting a webhook", () => {
  it("answers 204; its triggers are 404 at once through both gateways; the alerts it opened are kept", async () => {
    const { teamId, secret, webhookId, webhookUrl } = await one.setup();
    for (const client of [one, two]) {
      const body = { title: "Disk full", group_key: `disk-${client.stack.baseUrl}` };
      expect((await client.trigger(webhookUrl, body, { secret })).status).toBe(201);
    }

    expect((await one.admin("DELETE", `/webhooks/${webhookId}`)).status).toBe(204);

    const gone = await one.trigger(webhookUrl, { title: "again" }, { secret });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("webhook_not_found");
    await eventually(
      async () => ((await two.trigger(webhookUrl, { title: "again" }, { secret })).status === 404 ? true : undefined),
      { timeoutMs: 1_000, what: "a 404 through the other gateway" },
    );
    const resolve = await fetch(`${two.stack.baseUrl}/api/alerts/resolve/${webhookUrl}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-webhook-signature": sign(secret, '{"group_key":"x"}') },
      body: '{"group_key":"x"}',
    });
    expect(resolve.status).toBe(404);

    expect((await one.admin("GET", `/webhooks/${webhookId}`)).status).toBe(404);
    expect((await one.admin("DELETE", `/webhooks/${webhookId}`)).status).toBe(404);
    expect(await count("SELECT count(*)::int AS n FROM alerts.webhooks WHERE id = $1", [webhookId])).toBe(0);
    const alerts = (await one.admin("GET", `/teams/${teamId}/alerts`)).body.alerts as { source: string }[];
    expect(alerts).toHaveLength(2);
    expect(await auditActions(teamId)).toContain("webhook.delete");
  });
});

describe("deleting a team", () => {
  it("is the admin token's: a key of the team, even a write one, is refused", async () => {
    const { teamId } = await one.createTeam();
    const key = await one.admin("POST", `/teams/${teamId}/api-keys`, { name: "ops", scope: "write" });
    const refused = await one.admin("DELETE", `/teams/${teamId}`, undefined, key.body.token as string);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("forbidden");
    expect((await one.admin("GET", `/teams/${teamId}`)).status).toBe(200);
    expect((await one.admin("DELETE", "/teams/team_doesnotexist")).status).toBe(404);
  });

  it("answers 204; everything of it is 404 at once through both gateways; its rows are purged, its audit log kept", async () => {
    const { teamId, secret, webhookId, webhookUrl } = await one.setup();
    const monitor = await one.createMonitor(teamId);
    // Channels with deliveries (one a receiver that never answers: a delivery left pending), a policy, a silence.
    const receiver = await Receiver.start((request) => (request.path === "/hang" ? "hang" : 200));
    closers.push(() => receiver.close());
    const channel = await createChannel(one, teamId, { kind: "webhook", url: receiver.url("/ok") });
    await createChannel(one, teamId, { kind: "webhook", url: receiver.url("/hang") });
    const policy = { routes: [{ severities: ["sev2"], channelIds: [channel.id] }] };
    expect((await one.admin("PUT", `/teams/${teamId}/notification-policy`, policy)).status).toBe(200);
    const window = {
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      endsAt: new Date(Date.now() + 7_200_000).toISOString(),
    };
    expect((await one.admin("POST", `/teams/${teamId}/silences`, { name: "Later", ...window })).status).toBe(201);
    const badgeUrl = (monitor as unknown as { badgeUrl: string }).badgeUrl;
    const key = await one.admin("POST", `/teams/${teamId}/api-keys`, { name: "reader", scope: "read" });
    const token = key.body.token as string;
    const session = await signIn(two.stack.baseUrl, token, `192.0.2.${randomBytes(1)[0]}`);
    expect(await signedIn(two.stack.baseUrl, session.sessionId)).toBe(true);
    await one.trigger(webhookUrl, { title: "Notified", group_key: "notified" }, { secret });
    await receiver.waitFor((requests) => requests.length >= 1, "a delivery");
    for (const client of [one, two]) {
      expect((await client.trigger(webhookUrl, { title: "Disk full" }, { secret })).status).toBe(201);
      expect((await client.ping(monitor.pingUrl, undefined, { secret })).status).toBe(200);
      expect(await badgeOf(client, badgeUrl)).toBe(200);
      expect((await client.admin("GET", `/teams/${teamId}/webhooks`, undefined, token)).status).toBe(200);
      expect((await client.admin("GET", `/webhooks/${webhookId}`)).status).toBe(200);
    }

    const deleted = await one.admin("DELETE", `/teams/${teamId}`);
    expect(deleted.status).toBe(204);

    const checks = async (client: Client) => ({
      team: (await client.admin("GET", `/teams/${teamId}`)).status,
      trigger: (await client.trigger(webhookUrl, { title: "again" }, { secret })).status,
      ping: (await client.ping(monitor.pingUrl, undefined, { secret })).status,
      badge: await badgeOf(client, badgeUrl),
      webhook: (await client.admin("GET", `/webhooks/${webhookId}`)).status,
      monitor: (await client.admin("GET", `/monitors/${monitor.id}`)).status,
      key: (await client.admin("GET", `/teams/${teamId}/webhooks`, undefined, token)).status,
    });
    const notFound = { team: 404, trigger: 404, ping: 404, badge: 404, webhook: 404, monitor: 404, key: 401 };
    expect(await checks(one)).toEqual(notFound);
    await eventually(
      async () => {
        const seen = await checks(two);
        return JSON.stringify(seen) === JSON.stringify(notFound) ? seen : undefined;
      },
      { timeoutMs: 1_000, what: "everything of the team 404 through the other gateway" },
    );
    // The key's dashboard session ended with it.
    expect(await signedIn(two.stack.baseUrl, session.sessionId)).toBe(false);
    expect((await one.admin("DELETE", `/teams/${teamId}`)).status).toBe(404);

    for (const [sql, what] of [
      ["SELECT count(*)::int AS n FROM alerts.webhooks WHERE team_id = $1", "webhooks"],
      ["SELECT count(*)::int AS n FROM alerts.alerts WHERE team_id = $1", "alerts"],
      ["SELECT count(*)::int AS n FROM alerts.occurrences WHERE team_id = $1", "occurrences"],
      ["SELECT count(*)::int AS n FROM alerts.deliveries WHERE team_id = $1", "deliveries"],
      ["SELECT count(*)::int AS n FROM alerts.outbox WHERE team_id = $1 AND alert_id IS NOT NULL", "outbox events"],
      ["SELECT count(*)::int AS n FROM alerts.channels WHERE team_id = $1", "channels"],
      ["SELECT count(*)::int AS n FROM alerts.silences WHERE team_id = $1", "silences"],
      ["SELECT count(*)::int AS n FROM alerts.notification_policies WHERE team_id = $1", "the policy"],
      ["SELECT count(*)::int AS n FROM monitors.monitors WHERE team_id = $1", "monitors"],
      ["SELECT count(*)::int AS n FROM monitors.pings WHERE team_id = $1", "pings"],
      ["SELECT count(*)::int AS n FROM auth.api_keys WHERE team_id = $1", "API keys"],
    ] as const) {
      await purged(sql, [teamId], `${what} purged`);
    }
    // The audit log stays readable with the admin token; it ends with the deletion.
    const log = await one.admin("GET", `/teams/${teamId}/audit-log`);
    expect(log.status).toBe(200);
    expect((log.body.entries as { action: string; details: unknown }[])[0]).toMatchObject({
      action: "team.delete",
      details: { name: expect.stringMatching(/^Test team /) },
    });
    // Its name is free again.
    const name = ((log.body.entries as { details: { name: string } }[])[0] as { details: { name: string } }).details
      .name;
    expect((await one.admin("POST", "/teams", { name })).status).toBe(201);
  });

  it("takes a big team's rows away in batches, in the background, without holding up another team", async () => {
    const big = await one.setupMonitor();
    const small = await one.setupMonitor();
    // 30,000 pings of one monitor, written straight into the table: thirty of the purge's batches.
    await db.query(
      `INSERT INTO monitors.pings (ping_key, monitor_id, team_id, status, method, received_at, recorded_at, spooled)
       SELECT gen_random_uuid(), $1, $2, 'up', 'POST', now(), now(), false FROM generate_series(1, 30000)`,
      [big.monitorId, big.teamId],
    );
    const started = performance.now();
    expect((await one.admin("DELETE", `/teams/${big.teamId}`)).status).toBe(204);
    const answeredMs = performance.now() - started;
    // The other team's pings go on meanwhile.
    for (let i = 0; i < 5; i++)
      expect((await one.ping(small.pingUrl, undefined, { secret: small.secret })).status).toBe(200);
    await purged(
      "SELECT count(*)::int AS n FROM monitors.pings WHERE team_id = $1",
      [big.teamId],
      "the big team's pings purged",
    );
    expect(answeredMs).toBeLessThan(5_000);
  });
});
