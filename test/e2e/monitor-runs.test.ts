// Start and finish signals, run durations, runs that do not finish, slow runs.
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { signedRequest } from "./signed-post.ts";

const stack = inject("stack");
const client = new Client(stack);
const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => db.end());

type MonitorJson = {
  id: string;
  status: string;
  monitoringActive: boolean;
  lastReason: string | null;
  lastPingStatus: string | null;
  runStartedAt: string | null;
  lastDurationMs: number | null;
  nextDueAt: string | null;
};

const monitorOf = async (id: string) => (await client.admin("GET", `/monitors/${id}`)).body.monitor as MonitorJson;
const start = (pingUrl: string, secret: string, body?: unknown, method: "GET" | "POST" = "POST") =>
  signedRequest(stack.baseUrl, `/api/ping/${pingUrl}/start`, secret, body, { method });

describe("start and finish signals", () => {
  it("POST /start opens a run (status kept, monitoring on); the next up ping closes it with its duration", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor({}, { graceSeconds: 120 });
    const sentAt = Date.now();
    const started = await start(pingUrl, secret);
    expect(started.status).toBe(200);
    expect(started.body).toEqual({
      message: "Ping received",
      monitor: { name: "Nightly backup", status: "idle", monitoringActive: true },
      pingStatus: "start",
    });
    const running = await monitorOf(monitorId);
    expect(running).toMatchObject({ status: "idle", monitoringActive: true, lastPingStatus: "start" });
    const startedAt = new Date(running.runStartedAt as string).getTime();
    // The run must finish within the grace.
    expect(new Date(running.nextDueAt as string).getTime() - startedAt).toBe(120_000);

    // The run lasts at least this long, and at most from the start's sending to the finish's answer.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const finished = await client.ping(pingUrl, undefined, { secret });
    const answeredAt = Date.now();
    expect(finished.body).toMatchObject({ monitor: { status: "up" }, pingStatus: "up" });
    const done = await monitorOf(monitorId);
    expect(done.runStartedAt).toBeNull();
    expect(done.lastDurationMs).toBeGreaterThanOrEqual(300);
    expect(done.lastDurationMs).toBeLessThanOrEqual(answeredAt - sentAt);
    const pings = (await client.admin("GET", `/monitors/${monitorId}/pings`)).body.pings as {
      status: string;
      durationMs: number | null;
    }[];
    expect(pings.map((ping) => [ping.status, ping.durationMs])).toEqual([
      ["up", done.lastDurationMs],
      ["start", null],
    ]);
  });

  it('a body {"status":"start"} and GET /start are start signals too; /start refuses another status', async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    expect((await client.ping(pingUrl, { status: "start" }, { secret })).body.pingStatus).toBe("start");
    expect((await monitorOf(monitorId)).runStartedAt).not.toBeNull();
    expect((await start(pingUrl, secret, undefined, "GET")).body.pingStatus).toBe("start");
    const refused = await start(pingUrl, secret, { status: "up" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "invalid_request", details: [{ field: "status" }] });
    const unknown = await client.ping(pingUrl, { status: "started" }, { secret });
    expect([unknown.status, unknown.body.code]).toEqual([400, "invalid_request"]);
  });

  it("a down ping closes the run too, and raises the incident as usual", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor();
    const sentAt = Date.now();
    await start(pingUrl, secret);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.ping(pingUrl, { status: "down", reason: "exit code 3" }, { secret });
    const answeredAt = Date.now();
    const monitor = await monitorOf(monitorId);
    expect(monitor).toMatchObject({ status: "down", lastReason: "exit code 3", runStartedAt: null });
    expect(monitor.lastDurationMs).toBeGreaterThanOrEqual(200);
    expect(monitor.lastDurationMs).toBeLessThanOrEqual(answeredAt - sentAt);
    const alerts = (await client.admin("GET", `/teams/${teamId}/alerts`)).body.alerts as { title: string }[];
    expect(alerts.map((alert) => alert.title)).toEqual(['Monitor "Nightly backup" is down: exit code 3']);
  });

  it("a run that does not finish within the grace is down with `run did not finish`, and raises an incident", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor({}, { graceSeconds: 1 });
    await client.ping(pingUrl, undefined, { secret });
    await start(pingUrl, secret);
    const down = await eventually(async () => {
      const current = await monitorOf(monitorId);
      return current.status === "down" ? current : undefined;
    });
    expect(down).toMatchObject({ lastReason: "run did not finish", nextDueAt: null });
    const alert = await eventually(async () => {
      const list = (await client.admin("GET", `/teams/${teamId}/alerts`)).body.alerts as {
        title: string;
        description: string;
      }[];
      return list[0];
    });
    expect(alert.title).toBe('Monitor "Nightly backup" is down: run did not finish');
    expect(alert.description).toMatch(/^A run started at .+ and no up or down ping finished it within 1 s\.$/);
    // The late finish still closes the run and resolves the incident.
    await client.ping(pingUrl, undefined, { secret });
    expect(await monitorOf(monitorId)).toMatchObject({ status: "up", runStartedAt: null });
  });

  it("a run longer than maxDurationSeconds is down when it finishes, with the duration as reason", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor(
      {},
      { graceSeconds: 3600, maxDurationSeconds: 60 },
    );
    expect((await monitorOf(monitorId)) as unknown).toMatchObject({ maxDurationSeconds: 60 });
    await start(pingUrl, secret);
    // The run has been going for 90 s: its start is moved back rather than waited for.
    await db.query(
      "UPDATE monitors.monitors SET run_started_at = run_started_at - interval '90 seconds' WHERE id = $1",
      [monitorId],
    );
    const finished = await client.ping(pingUrl, undefined, { secret });
    expect(finished.body).toMatchObject({ monitor: { status: "down" }, pingStatus: "up" });
    const monitor = await monitorOf(monitorId);
    // 90 s and however long the finish took to arrive (more on a loaded machine): the reason names the duration stored.
    expect(monitor.lastDurationMs).toBeGreaterThanOrEqual(90_000);
    expect(monitor.lastReason).toBe(
      `run took ${Math.round((monitor.lastDurationMs as number) / 1000)} s, longer than the 60 s maximum`,
    );
    const alerts = (await client.admin("GET", `/teams/${teamId}/alerts`)).body.alerts as { title: string }[];
    expect(alerts[0]?.title).toBe(`Monitor "Nightly backup" is down: ${monitor.lastReason}`);
  });
});
