// Spec §3 "Monitor statuses" row by row, DESIGN §5's lifecycle and incidents, through real HTTP.
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client, sign } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";

const stack = inject("stack");
const client = new Client(stack);
const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => db.end());

type AlertJson = {
  id: string;
  status: string;
  groupKey: string | null;
  title: string;
  description: string;
  severity: string;
  occurrenceCount: number;
  source: string;
  sourceId: string;
};

async function monitorAlerts(teamId: string, monitorId?: string): Promise<AlertJson[]> {
  const response = await client.admin("GET", `/teams/${teamId}/alerts`);
  const alerts = response.body.alerts as AlertJson[];
  return alerts.filter((alert) => alert.source === "monitor" && (!monitorId || alert.sourceId === monitorId));
}

/** Incident actions the pings of a monitor queued (committed before each 200), once alerts has them all. */
async function settledActions(monitorId: string) {
  return eventually(
    async () => {
      const { rows } = await db.query<{ kind: string; done: boolean; outcome: string | null }>(
        "SELECT kind, done_at IS NOT NULL AS done, outcome FROM monitors.incident_actions WHERE monitor_id = $1 ORDER BY id",
        [monitorId],
      );
      return rows.every((row) => row.done) ? rows : undefined;
    },
    { what: "incident outbox drained" },
  );
}

describe("monitor transitions (spec §3)", () => {
  it("a new monitor is idle and not monitoring until its first ping", async () => {
    const { monitor } = await client.setupMonitor();
    expect(monitor).toMatchObject({
      status: "idle",
      monitoringActive: false,
      intervalSeconds: 300,
      graceSeconds: 60,
      severity: "sev2",
      lastPingAt: null,
    });
    expect(monitor.pingUrl).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  });

  it("first ping ever: accepted, the effective status is returned and monitoringActive becomes true", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    const response = await client.ping(pingUrl, undefined, { secret });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      message: "Ping received",
      monitor: { name: "Nightly backup", status: "up", monitoringActive: true },
      pingStatus: "up",
    });
    expect(await client.getMonitor(monitorId)).toMatchObject({
      status: "up",
      monitoringActive: true,
      lastPingStatus: "up",
    });
  });

  it("first ping ever with status down: down, monitoring, and an incident at once", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor({}, { severity: "sev1" });
    const response = await client.ping(pingUrl, { status: "down", reason: "backup failed" }, { secret });
    expect(response.body).toEqual({
      message: "Ping received",
      monitor: { name: "Nightly backup", status: "down", monitoringActive: true },
      pingStatus: "down",
    });
    // Raised before the answer: the alert is there the moment the ping is answered.
    const [alert] = await monitorAlerts(teamId, monitorId);
    expect(alert).toMatchObject({
      status: "open",
      groupKey: `monitor:${monitorId}`,
      severity: "sev1",
      occurrenceCount: 1,
      source: "monitor",
    });
    expect(alert?.title).toContain("backup failed");
  });

  it("a ping with status down raises an incident from up, and the reported status is returned", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor();
    await client.ping(pingUrl, { status: "up" }, { secret });
    const down = await client.ping(pingUrl, { status: "down", reason: "exit code 2" }, { secret });
    expect(down.body.monitor).toEqual({ name: "Nightly backup", status: "down", monitoringActive: true });
    const actions = await settledActions(monitorId);
    expect(actions.map((action) => action.kind)).toEqual(["raise"]);
    expect((await monitorAlerts(teamId, monitorId)).map((alert) => alert.occurrenceCount)).toEqual([1]);
  });

  it("down after down with the same reason raises nothing new; a different reason does", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor();
    await client.ping(pingUrl, { status: "down", reason: "disk full" }, { secret });
    const again = await client.ping(pingUrl, { status: "down", reason: "disk full" }, { secret });
    expect(again.body.monitor).toMatchObject({ status: "down" });
    expect((await settledActions(monitorId)).map((action) => action.kind)).toEqual(["raise"]);
    const [first] = await monitorAlerts(teamId, monitorId);
    expect(first?.occurrenceCount).toBe(1);

    await client.ping(pingUrl, { status: "down", reason: "out of memory" }, { secret });
    expect((await settledActions(monitorId)).map((action) => action.kind)).toEqual(["raise", "raise"]);
    // Same monitor, same group key: the second incident folds into the open alert.
    const alerts = await monitorAlerts(teamId, monitorId);
    expect(alerts.map((alert) => [alert.id, alert.occurrenceCount])).toEqual([[first?.id, 2]]);
  });

  it("up after down resolves the incident's alert", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor();
    await client.ping(pingUrl, { status: "down", reason: "db unreachable" }, { secret });
    const up = await client.ping(pingUrl, { status: "up" }, { secret });
    expect(up.body.monitor).toEqual({ name: "Nightly backup", status: "up", monitoringActive: true });
    // Resolved before the answer too.
    expect((await monitorAlerts(teamId, monitorId)).map((alert) => alert.status)).toEqual(["resolved"]);
    expect((await settledActions(monitorId)).map((action) => [action.kind, action.outcome])).toEqual([
      ["raise", "created"],
      ["resolve", "resolved"],
    ]);
    const alerts = await monitorAlerts(teamId, monitorId);
    expect(alerts.map((alert) => alert.status)).toEqual(["resolved"]);
    // A later down reopens it within the reopen window, like any alert.
    await client.ping(pingUrl, { status: "down", reason: "db unreachable" }, { secret });
    await settledActions(monitorId);
    const reopened = await monitorAlerts(teamId, monitorId);
    expect(reopened.map((alert) => [alert.id, alert.status, alert.occurrenceCount])).toEqual([
      [alerts[0]?.id, "open", 2],
    ]);
  });

  it("a ping's group_key folds the incident into an open alert a webhook raised with that key", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const monitor = await client.createMonitor(teamId, { name: "DB backup" });
    const trigger = await client.trigger(
      webhookUrl,
      { title: "Primary DB degraded", group_key: "db-primary" },
      { secret },
    );
    expect(trigger.body.status).toBe("created");
    const ping = await client.ping(
      monitor.pingUrl,
      { status: "down", reason: "replica lag", group_key: "db-primary", host: "db-1" },
      { secret },
    );
    expect(ping.status).toBe(200);
    await settledActions(monitor.id);
    const alert = await client.admin("GET", `/alerts/${trigger.body.alertId}`);
    expect(alert.body.alert).toMatchObject({ status: "open", occurrenceCount: 2, groupKey: "db-primary" });
    const occurrences = await client.admin("GET", `/alerts/${trigger.body.alertId}/occurrences`);
    const newest = (occurrences.body.occurrences as { source: string; sourceId: string; metadata: unknown }[])[0];
    expect(newest).toMatchObject({
      source: "monitor",
      sourceId: monitor.id,
      metadata: { group_key: "db-primary", host: "db-1" },
    });
  });

  it("paused: pings are answered 404 and change nothing; resume makes it idle until the next ping", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    await client.ping(pingUrl, undefined, { secret });
    const paused = await client.admin("POST", `/monitors/${monitorId}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.monitor).toMatchObject({ status: "paused", monitoringActive: false });
    for (const method of ["GET", "POST"] as const) {
      const response = await client.ping(pingUrl, undefined, { secret, method });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe("monitor_not_found");
    }
    const down = await client.ping(pingUrl, { status: "down" }, { secret });
    expect(down.status).toBe(404);
    expect(await client.getMonitor(monitorId)).toMatchObject({ status: "paused", monitoringActive: false });
    const pings = await client.admin("GET", `/monitors/${monitorId}/pings`);
    expect((pings.body.pings as unknown[]).length).toBe(1);

    const resumed = await client.admin("POST", `/monitors/${monitorId}/resume`);
    expect(resumed.body.monitor).toMatchObject({ status: "idle", monitoringActive: false });
    const first = await client.ping(pingUrl, { status: "down", reason: "first after resume" }, { secret });
    expect(first.status).toBe(200);
    expect(first.body.monitor).toEqual({ name: "Nightly backup", status: "down", monitoringActive: true });
  });

  it("the GET form and an empty POST are up pings signed over the empty string", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    const get = await client.ping(pingUrl, undefined, { method: "GET", signature: sign(secret, "") });
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ pingStatus: "up", monitor: { status: "up", monitoringActive: true } });
    const post = await client.ping(pingUrl, undefined, { secret });
    expect(post.status).toBe(200);
    const pings = await client.admin("GET", `/monitors/${monitorId}/pings`);
    expect(
      (pings.body.pings as { method: string; status: string }[]).map((ping) => [ping.method, ping.status]),
    ).toEqual([
      ["POST", "up"],
      ["GET", "up"],
    ]);
  });
});
