// DESIGN §5 "missed heartbeat": the sweeper, run by TWO monitors processes against one database.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SELECT_DUE_MONITORS } from "../../services/monitors/src/sweeper/mark-due-monitors-down.ts";
import { Client, type MonitorJson } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { freePort } from "../support/free-port.ts";
import { counter, untilCounter } from "../support/prometheus.ts";
import { receiversClosedAfterEach } from "../support/receiver.ts";
import { Stack } from "../support/stack.ts";
import { createChannel } from "./notifications-helpers.ts";

let stack: Stack;
let client: Client;
let db: pg.Pool;
/** Each monitors process's METRICS_PORT: its sweep counter shows that sweeps ran. */
const metricsPorts: number[] = [];
const receiver = receiversClosedAfterEach();

beforeAll(async () => {
  metricsPorts.push(await freePort(), await freePort());
  stack = await Stack.create({
    databaseName: `pulsegate_e2e_sweeper_${process.pid}`,
    env: { SWEEP_INTERVAL_MS: "250", INCIDENT_POLL_MS: "250" },
    serviceEnv: (name) =>
      name === "monitors" ? { OTEL_SDK_DISABLED: "false", METRICS_PORT: String(metricsPorts[0]) } : {},
  });
  await stack.startReplica("monitors", "monitors-2", { METRICS_PORT: String(metricsPorts[1]) });
  client = new Client(stack.info);
  db = new pg.Pool({ connectionString: stack.info.databaseUrl, max: 2 });
}, 90_000);

afterAll(async () => {
  await db?.end();
  await stack?.destroy();
});

const raiseActions = async (monitorId: string) =>
  (
    await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM monitors.incident_actions WHERE monitor_id = $1 AND kind = 'raise'",
      [monitorId],
    )
  ).rows[0]?.n;

const SWEEPS = "pulsegate_monitors_sweeps_total";

/**
 * Until both monitors processes have completed `passes` more sweeps than now:
 * what they did not do by then, they did not do in that many sweeps.
 */
async function sweepsPass(passes: number): Promise<() => Promise<void>> {
  const before = await Promise.all(metricsPorts.map((port) => counter(port, SWEEPS, { result: "ok" })));
  return async () => {
    for (const [index, port] of metricsPorts.entries()) {
      await untilCounter(port, SWEEPS, { result: "ok" }, (before[index] ?? 0) + passes, {
        what: `${passes} more sweeps by monitors process ${index + 1}`,
      });
    }
  };
}

async function monitorAlerts(teamId: string) {
  const response = await client.admin("GET", `/teams/${teamId}/alerts`);
  return (
    response.body.alerts as {
      sourceId: string;
      source: string;
      title: string;
      occurrenceCount: number;
      status: string;
    }[]
  ).filter((alert) => alert.source === "monitor");
}

describe("missed-heartbeat sweeper with two replicas", () => {
  it("marks each overdue monitor down once, with exactly one incident each", async () => {
    const { teamId, secret } = await client.createTeam();
    const monitors: MonitorJson[] = [];
    for (let i = 0; i < 12; i++)
      monitors.push(await client.createMonitor(teamId, { name: `job ${i}`, intervalSeconds: 1, graceSeconds: 1 }));
    for (const monitor of monitors)
      expect((await client.ping(monitor.pingUrl, undefined, { secret })).status).toBe(200);

    for (const monitor of monitors) {
      const down = await eventually(
        async () => {
          const current = await client.getMonitor(monitor.id);
          return current.status === "down" ? current : undefined;
        },
        { what: `${monitor.name} down` },
      );
      expect(down).toMatchObject({ status: "down", monitoringActive: true, lastReason: "missed heartbeat" });
    }
    const alerts = await eventually(async () => {
      const found = await monitorAlerts(teamId);
      return found.length === monitors.length ? found : undefined;
    });
    // Several more sweeps by both processes change nothing.
    await (await sweepsPass(4))();
    for (const monitor of monitors) expect(await raiseActions(monitor.id)).toBe(1);
    const again = await monitorAlerts(teamId);
    expect(again.length).toBe(monitors.length);
    expect(new Set(again.map((alert) => alert.sourceId))).toEqual(new Set(monitors.map((monitor) => monitor.id)));
    for (const alert of again) {
      expect(alert.occurrenceCount).toBe(1);
      expect(alert.title).toContain("missed heartbeat");
    }
    expect(alerts.length).toBe(monitors.length);
  });

  it("an up ping after a missed heartbeat resolves its incident", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor(
      {},
      { intervalSeconds: 1, graceSeconds: 1 },
    );
    await client.ping(pingUrl, undefined, { secret });
    await eventually(async () => ((await client.getMonitor(monitorId)).status === "down" ? true : undefined));
    await eventually(async () => ((await monitorAlerts(teamId)).length === 1 ? true : undefined));
    const up = await client.ping(pingUrl, undefined, { secret });
    expect(up.body.monitor).toMatchObject({ status: "up", monitoringActive: true });
    const [alert] = await eventually(async () => {
      const found = await monitorAlerts(teamId);
      return found[0]?.status === "resolved" ? found : undefined;
    });
    expect(alert?.sourceId).toBe(monitorId);
  });

  it("a missed heartbeat that reopens an incident pages the missed heartbeat, not the earlier reason", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor(
      {},
      { name: "Backups", intervalSeconds: 1, graceSeconds: 1 },
    );
    const hook = await receiver();
    await createChannel(client, teamId, { kind: "webhook", url: hook.url() });
    await client.ping(pingUrl, { status: "down", reason: "disk full on /var/backups" }, { secret });
    await client.ping(pingUrl, undefined, { secret });

    const requests = await hook.waitForCount(3);
    expect(requests.map((request) => request.json.type)).toEqual(["alert.created", "alert.resolved", "alert.reopened"]);
    expect((await client.getMonitor(monitorId)).lastReason).toBe("missed heartbeat");
    expect(requests[2]?.json.alert).toMatchObject({
      status: "open",
      title: 'Monitor "Backups" is down: missed heartbeat',
      description: expect.stringMatching(/^No ping within the 1 s interval plus 1 s grace\./),
      metadata: { reason: "missed heartbeat" },
    });
    expect(requests[2]?.raw.toString()).not.toContain("disk full");
  });

  it("never sweeps idle, paused or regularly pinged monitors", async () => {
    const { teamId, secret } = await client.createTeam();
    const idle = await client.createMonitor(teamId, { name: "idle", intervalSeconds: 1, graceSeconds: 0 });
    const paused = await client.createMonitor(teamId, { name: "paused", intervalSeconds: 1, graceSeconds: 0 });
    const healthy = await client.createMonitor(teamId, { name: "healthy", intervalSeconds: 2, graceSeconds: 2 });
    await client.ping(paused.pingUrl, undefined, { secret });
    await client.admin("POST", `/monitors/${paused.id}/pause`);
    // The healthy one is pinged every half second (well inside its 2 + 2 s: the pause paces the pings,
    // it is not waited on), and both processes must have swept at least four times meanwhile.
    const swept = await sweepsPass(4);
    for (let i = 0; i < 5; i++) {
      expect((await client.ping(healthy.pingUrl, undefined, { secret })).status).toBe(200);
      await new Promise((done) => setTimeout(done, 500));
    }
    await swept();
    expect((await client.getMonitor(idle.id)).status).toBe("idle");
    expect((await client.getMonitor(paused.id)).status).toBe("paused");
    expect((await client.getMonitor(healthy.id)).status).toBe("up");
    expect(await monitorAlerts(teamId)).toEqual([]);
  });

  it("a check that comes early is queued again at the due time: pings kept the monitor up", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor({}, { intervalSeconds: 2, graceSeconds: 1 });
    const checkOf = async () =>
      (
        await db.query<{ check_at: Date; next_due_at: Date | null }>(
          `SELECT q.check_at, m.next_due_at FROM monitors.monitors m
             LEFT JOIN monitors.due_checks q ON q.monitor_id = m.id WHERE m.id = $1`,
          [monitorId],
        )
      ).rows[0];
    expect((await client.ping(pingUrl, undefined, { secret })).status).toBe(200);
    const first = await checkOf();
    expect(first?.check_at).toEqual(first?.next_due_at);
    // Pinged every half second past the first check (3 s after the first ping): each ping moved the due
    // time on and left the check where it was, so the check came early and was queued again.
    const until = Date.now() + 4_500;
    while (Date.now() < until) {
      expect((await client.ping(pingUrl, undefined, { secret })).status).toBe(200);
      await new Promise((done) => setTimeout(done, 500));
    }
    expect((await client.getMonitor(monitorId)).status).toBe("up");
    const requeued = await checkOf();
    expect(requeued?.check_at.getTime()).toBeGreaterThan(first?.check_at.getTime() ?? Infinity);
    expect(requeued?.check_at.getTime()).toBeLessThanOrEqual(requeued?.next_due_at?.getTime() ?? 0);
    expect(await raiseActions(monitorId)).toBe(0);
    // Then no more pings: down once the due time passes, not before, with one incident.
    const lastDue = (await checkOf())?.next_due_at?.getTime() ?? 0;
    await eventually(async () => ((await client.getMonitor(monitorId)).status === "down" ? true : undefined));
    expect(Date.now()).toBeGreaterThanOrEqual(lastDue);
    expect(await raiseActions(monitorId)).toBe(1);
    expect(await checkOf()).toMatchObject({ check_at: null, next_due_at: null });
  });

  it("a due time written by code that does not know the queue (the previous release) is queued by the trigger", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor({}, { intervalSeconds: 3600, graceSeconds: 60 });
    expect((await client.ping(pingUrl, undefined, { secret })).status).toBe(200);
    // As release 0009's ping batch or settings update writes it: the monitor row alone.
    await db.query("UPDATE monitors.monitors SET next_due_at = now() - interval '1 second' WHERE id = $1", [monitorId]);
    await eventually(async () => ((await client.getMonitor(monitorId)).status === "down" ? true : undefined));
    expect(await raiseActions(monitorId)).toBe(1);
  });

  it("the sweep reads due checks through the index on check_at", async () => {
    const connection = await db.connect();
    try {
      await connection.query("BEGIN");
      // Tiny tables make a sequential scan cheaper; forbid it to see which index the query can use.
      await connection.query("SET LOCAL enable_seqscan = off");
      const { rows } = await connection.query<{ "QUERY PLAN": string }>(
        `EXPLAIN ${SELECT_DUE_MONITORS.replace("?", "200")}`,
      );
      expect(rows.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(/due_checks_check_at_idx/);
    } finally {
      await connection.query("ROLLBACK");
      connection.release();
    }
  });
});
