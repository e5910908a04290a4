// With two of every service (`npm start -- --replicas 2`, one stack for the file), each
// behaviour holds through both gateways as with one: a dashboard session is shared; the ping rate limit,
// a webhook's rate limit and the monthly alert quota are exact under concurrent requests through both;
// a secret rotated with no grace through one gateway holds on the other within 2 s; and every alert,
// missed heartbeat and reminder is notified exactly once while two alerts dispatchers, two monitors
// sweepers and two reminder passes run side by side.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../support/client.ts";
import { signedIn, signIn, signOut } from "../support/dashboard-session.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { eventually } from "../support/eventually.ts";
import { type ReceivedRequest, Receiver } from "../support/receiver.ts";
import type { StackInfo } from "../support/stack.ts";
import { createChannel } from "./notifications-helpers.ts";
import { StartProcess } from "./start-process.ts";

const databaseName = `pulsegate_replicas_${process.pid}`;
const databaseUrl = `${TEST_DATABASE_SERVER}/${databaseName}`;
/** The rotation bound this file holds the stack to (docs/operations.md, "Replicas"). */
const ROTATION_BOUND_MS = 2_000;

let start: StartProcess | undefined;
let db: pg.Pool;
let receiver: Receiver;
let one: Client;
let two: Client;
let gateways: [string, string];

beforeAll(async () => {
  await recreateDatabase(databaseName);
  receiver = await Receiver.start();
  start = await StartProcess.spawn({
    args: ["--replicas", "2"],
    env: {
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
      REDIS_KEY_PREFIX: `pulsegate-test:replicas-${process.pid}-${randomBytes(4).toString("hex")}`,
      // Background passes often, so the file is short; what they do is the same. The caches that
      // make a rotation slow to reach another replica (VERIFIED_CACHE_MS, VERIFIER_CACHE_MS) keep
      // their defaults: that is what the rotation test is about.
      SWEEP_INTERVAL_MS: "250",
      INCIDENT_POLL_MS: "250",
      REMINDER_INTERVAL_MS: "250",
      NOTIFY_POLL_MS: "100",
      GRPC_DRAIN_MS: "1000",
      // Eight processes beside the other files' stacks on one PostgreSQL (100 connections): small pools.
      DB_POOL_MAX: "3",
      // The receiver always answers 200, but on a starved machine its answer can come after the
      // default 5 s attempt timeout, and the delivery is then sent again by design (at least once,
      // the same delivery id). A long timeout leaves only what this file looks for: two replicas
      // sending one delivery.
      NOTIFY_ATTEMPT_TIMEOUT_MS: "30000",
    },
  });
  const adminToken = await start.waitReady(150_000);
  const port = Number(new URL(start.baseUrl).port);
  gateways = [start.baseUrl, `http://127.0.0.1:${port + 1}`];
  [one, two] = gateways.map((baseUrl) => new Client({ baseUrl, adminToken } as StackInfo)) as [Client, Client];
  db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
}, 180_000);

afterAll(async () => {
  if (start?.running) await start.stop("SIGINT", 60_000).catch(() => start?.kill());
  await receiver?.close();
  await db?.end();
  await dropDatabase(databaseName);
});

/** Requests `count` times at once, alternating between the two gateways' clients. */
function bothAtOnce<T>(count: number, send: (client: Client, index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => send(index % 2 === 0 ? one : two, index)));
}

const statusCounts = (responses: { status: number }[]) =>
  responses.reduce<Record<number, number>>((counts, { status }) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});

/** This team's requests at the receiver (each team's channel has its own path), of one event type. */
const received = (teamId: string, type: string) =>
  receiver.requests.filter((request) => request.path === `/hooks/${teamId}` && request.json.type === type);

const alertIdOf = (request: ReceivedRequest) => (request.json.alert as { id: string }).id;

/** A team with a webhook channel to the receiver. */
async function notifiedTeam(team: Record<string, unknown> = {}, webhook: Record<string, unknown> = {}) {
  const setup = await one.setup(team, { rateLimitPerMinute: 10_000, ...webhook });
  await createChannel(one, setup.teamId, { kind: "webhook", url: receiver.url(`/hooks/${setup.teamId}`) });
  return setup;
}

/** Every delivery of the team has been attempted to the end (none pending): nothing more is coming. */
async function allDelivered(teamId: string, expected: number): Promise<void> {
  await eventually(
    async () => {
      const { rows } = await db.query<{ delivered: number; pending: number }>(
        `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
                count(*) FILTER (WHERE status = 'pending')::int AS pending
           FROM alerts.deliveries WHERE team_id = $1`,
        [teamId],
      );
      const counts = rows[0];
      if (counts?.pending !== 0 || counts.delivered < expected) throw new Error(JSON.stringify(counts));
      return true;
    },
    { timeoutMs: 20_000, what: `${expected} deliveries delivered` },
  );
}

/**
 * Each delivery the receiver got more than once, with the attempt numbers it carried and what the
 * database holds of it: whether two replicas sent it side by side, or it was sent again after an
 * attempt that failed.
 */
async function sentTwice(requests: ReceivedRequest[]): Promise<string[]> {
  const attempts = new Map<string, string[]>();
  for (const request of requests) {
    const id = String(request.headers["x-pulsegate-delivery"]);
    attempts.set(id, [...(attempts.get(id) ?? []), String(request.headers["x-pulsegate-attempt"])]);
  }
  const repeated = [...attempts].filter(([, sent]) => sent.length > 1).map(([id]) => id);
  if (repeated.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    "SELECT id, attempts, status, last_error FROM alerts.deliveries WHERE id = ANY($1)",
    [repeated],
  );
  return repeated.map(
    (id) =>
      `${id}: sent as attempts ${attempts.get(id)?.join(", ")}; ${JSON.stringify(rows.find((row) => row.id === id))}`,
  );
}

/** Lets both replicas' background passes run several times (they poll every 100–250 ms here). */
const passesRun = () => new Promise((done) => setTimeout(done, 1_200));

describe("npm start -- --replicas 2: two of everything behave as one", () => {
  it("a dashboard session made on gateway 1 is valid on gateway 2, and signing out on 2 ends it on 1", async () => {
    const [first, second] = gateways;
    const session = await signIn(first, one.stack.adminToken);
    expect(session.status).toBe(303);
    expect(await signedIn(second, session.sessionId)).toBe(true);

    expect(await signOut(second, session.sessionId)).toBe(303);
    expect(await signedIn(first, session.sessionId)).toBe(false);
  });

  it("the ping rate limit is exact across gateways: 16 pings at once through both, 10 accepted", async () => {
    const { secret, pingUrl } = await one.setupMonitor();
    const responses = await bothAtOnce(16, (client) => client.ping(pingUrl, undefined, { secret }));
    expect(statusCounts(responses)).toEqual({ 200: 10, 429: 6 });
    for (const refused of responses.filter((response) => response.status === 429)) {
      expect(refused.body.code).toBe("rate_limited");
    }
  });

  it("a webhook's rate limit is exact across gateways", async () => {
    const { secret, webhookUrl } = await one.setup({}, { rateLimitPerMinute: 7 });
    const responses = await bothAtOnce(16, (client, index) =>
      client.trigger(webhookUrl, { title: `limited ${index}`, group_key: "limited" }, { secret }),
    );
    // Created once, then folded: 201 each time.
    expect(statusCounts(responses)).toEqual({ 201: 7, 429: 9 });
  });

  it("the monthly alert quota is exact across gateways and alerts replicas under concurrent creates", async () => {
    const { teamId, secret, webhookUrl } = await one.setup({ alertQuotaMonthly: 6 }, { rateLimitPerMinute: 10_000 });
    const responses = await bothAtOnce(20, (client, index) =>
      client.trigger(webhookUrl, { title: `quota ${index}`, group_key: `quota-${index}` }, { secret }),
    );
    expect(statusCounts(responses)).toEqual({ 201: 6, 429: 14 });
    for (const refused of responses.filter((response) => response.status === 429)) {
      expect(refused.body.code).toBe("alert_quota_exhausted");
    }
    const alerts = await two.admin("GET", `/teams/${teamId}/alerts?limit=100`);
    expect((alerts.body.alerts as unknown[]).length).toBe(6);
  });

  it(`a rotation with no grace through gateway 1 holds on gateway 2 within ${ROTATION_BOUND_MS} ms`, async () => {
    const { teamId, secret: oldSecret, webhookUrl } = await one.setup({}, { rateLimitPerMinute: 10_000 });
    const trigger = (client: Client, secret: string, title: string) =>
      client.trigger(webhookUrl, { title, group_key: "rotation" }, { secret });
    // Warm every cache a stale verdict could come from: gateway 2's verified signatures (an identical
    // body, so an identical signature) and both auth replicas' opened keys (each gateway's calls go
    // round robin over both; one at a time, so none are coalesced into one call).
    for (let i = 0; i < 4; i++) {
      for (const client of [one, two]) expect((await trigger(client, oldSecret, `warm ${i}`)).status).toBe(201);
    }
    expect((await trigger(two, oldSecret, "the same body")).status).toBe(201);

    const rotated = await one.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, { graceSeconds: 0 });
    expect(rotated.status).toBe(200);
    const rotatedAt = Date.now();
    const newSecret = rotated.body.webhookSecret as string;

    // On gateway 2, the old secret is refused: the cached body, and fresh bodies, which reach both auth
    // replicas. Nothing with the new secret is sent meanwhile: a signature that fails makes auth
    // re-read the team, which would hide keys it kept too long.
    let attempt = 0;
    const oldOnGatewayTwo = async () => {
      attempt++;
      const answers = [await trigger(two, oldSecret, "the same body")];
      for (let i = 0; i < 4; i++) answers.push(await trigger(two, oldSecret, `old ${attempt}.${i}`));
      return answers.map((answer) => answer.status).join(" ");
    };
    let seen = await oldOnGatewayTwo();
    while (seen !== "401 401 401 401 401" && Date.now() - rotatedAt < ROTATION_BOUND_MS) seen = await oldOnGatewayTwo();
    expect(seen).toBe("401 401 401 401 401");
    // Then the new one is accepted there, all within the bound.
    for (let i = 0; i < 4; i++) expect((await trigger(two, newSecret, `new ${i}`)).status).toBe(201);
    expect(Date.now() - rotatedAt).toBeLessThanOrEqual(ROTATION_BOUND_MS);
    // And it stays so, on both gateways.
    for (const client of [one, two]) {
      expect((await trigger(client, oldSecret, "the same body")).status).toBe(401);
      expect((await trigger(client, newSecret, "after")).status).toBe(201);
    }
  });

  it("every new alert is notified exactly once with two alerts replicas dispatching", async () => {
    const { teamId, secret, webhookUrl } = await notifiedTeam();
    const count = 24;
    const responses = await bothAtOnce(count, (client, index) =>
      client.trigger(webhookUrl, { title: `once ${index}`, group_key: `once-${index}` }, { secret }),
    );
    expect(statusCounts(responses)).toEqual({ 201: count });
    await receiver.waitFor(
      (requests) => requests.length > 0 && received(teamId, "alert.created").length >= count,
      `${count} alert.created`,
    );
    await allDelivered(teamId, count);
    await passesRun();
    const created = received(teamId, "alert.created");
    expect(await sentTwice(created)).toEqual([]);
    expect(created).toHaveLength(count);
    expect(new Set(created.map(alertIdOf))).toEqual(new Set(responses.map((response) => response.body.alertId)));
  });

  it("a missed heartbeat is paged once with two monitors sweepers: one incident, one notification", async () => {
    const { teamId, secret } = await notifiedTeam();
    const monitors = [];
    for (let i = 0; i < 6; i++) {
      monitors.push(await one.createMonitor(teamId, { name: `job ${i}`, intervalSeconds: 1, graceSeconds: 1 }));
    }
    for (const [index, monitor] of monitors.entries()) {
      expect((await (index % 2 === 0 ? one : two).ping(monitor.pingUrl, undefined, { secret })).status).toBe(200);
    }
    await receiver.waitFor(
      () => received(teamId, "alert.created").length >= monitors.length,
      `${monitors.length} missed heartbeats paged`,
    );
    await allDelivered(teamId, monitors.length);
    await passesRun();

    const pages = received(teamId, "alert.created");
    expect(await sentTwice(pages)).toEqual([]);
    expect(pages).toHaveLength(monitors.length);
    const { rows } = await db.query<{ monitor_id: string; raises: number }>(
      `SELECT monitor_id, count(*)::int AS raises FROM monitors.incident_actions
        WHERE team_id = $1 AND kind = 'raise' GROUP BY monitor_id`,
      [teamId],
    );
    expect(rows.map((row) => row.raises)).toEqual(monitors.map(() => 1));
    const alerts = (await two.admin("GET", `/teams/${teamId}/alerts?limit=100`)).body.alerts as {
      occurrenceCount: number;
      title: string;
    }[];
    expect(alerts).toHaveLength(monitors.length);
    for (const alert of alerts)
      expect(alert).toMatchObject({ occurrenceCount: 1, title: expect.stringContaining("missed heartbeat") });
  });

  it("a due reminder is sent once with two reminder passes", async () => {
    const { teamId, secret, webhookUrl } = await notifiedTeam({}, { repeatIntervalSeconds: 60 });
    const count = 10;
    const responses = await bothAtOnce(count, (client, index) =>
      client.trigger(webhookUrl, { title: `remind ${index}`, group_key: `remind-${index}` }, { secret }),
    );
    expect(statusCounts(responses)).toEqual({ 201: count });
    await allDelivered(teamId, count);
    // Time passes: every reminder is due now (the passes read the database's clock).
    await db.query("UPDATE alerts.alerts SET next_reminder_at = now() - interval '1 second' WHERE team_id = $1", [
      teamId,
    ]);
    await receiver.waitFor(() => received(teamId, "alert.reminder").length >= count, `${count} reminders`);
    await allDelivered(teamId, 2 * count);
    await passesRun();

    const reminders = received(teamId, "alert.reminder");
    expect(await sentTwice(reminders)).toEqual([]);
    expect(reminders).toHaveLength(count);
    expect(new Set(reminders.map(alertIdOf))).toEqual(new Set(responses.map((response) => response.body.alertId)));
    const { rows } = await db.query<{ reminders_sent: number }>(
      "SELECT reminders_sent FROM alerts.alerts WHERE team_id = $1",
      [teamId],
    );
    expect(rows.map((row) => row.reminders_sent)).toEqual(rows.map(() => 1));
  });
});
