// Monitors' queues against real PostgreSQL, Redis and the stack's alerts service: an entry that can
// never go through is set aside, counted and logged once, and the entries queued behind it go through.
import "../support/in-process-metrics.ts";
import { randomUUID } from "node:crypto";
import { createPgPool, type PgPool } from "@pulsegate/db";
import { connectClient } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import { createLogger } from "@pulsegate/runtime/logger";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { openMonitorsDatabase } from "../../services/monitors/src/app.ts";
import { loadMonitorsConfig } from "../../services/monitors/src/config.ts";
import { alertsOverGrpc } from "../../services/monitors/src/grpc/alerts-client.ts";
import { setAsideIncidentAction } from "../../services/monitors/src/incidents/incident-action-queue.ts";
import type { IncidentActionRow } from "../../services/monitors/src/incidents/incident-action-row.ts";
import { IncidentWorker } from "../../services/monitors/src/incidents/incident-worker.ts";
import { insertIncidentActions } from "../../services/monitors/src/incidents/insert-incident-actions.ts";
import { LastKnownMonitors } from "../../services/monitors/src/monitors/last-known-monitors.ts";
import { PingRecorder } from "../../services/monitors/src/pings/record-pings.ts";
import { drainSpool } from "../../services/monitors/src/spool/drain-spool.ts";
import { PingSpool } from "../../services/monitors/src/spool/ping-spool.ts";
import { aPingItem } from "../../services/monitors/src/testing/ping-item.ts";
import { TEST_DATABASE_SERVER, useTestDatabase } from "../support/database.ts";
import { inProcessCounter } from "../support/in-process-metrics.ts";

const stack = inject("stack");
const databaseName = `pulsegate_it_monitors_set_aside_${process.pid}`;
const config = loadMonitorsConfig({ DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`, DB_POOL_MAX: "5" });
const database = useTestDatabase(databaseName, () => openMonitorsDatabase(config, createLogger("test", "silent")));
const alertsClient = connectClient(alerts.AlertsServiceClient, stack.grpc.alerts, { deadlineMs: 5_000 });
const SET_ASIDE = "pulsegate_queue_set_aside_total";

let lines: Record<string, unknown>[] = [];
const log = createLogger("monitors-set-aside-test", "info", {
  write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
});
const setAsideLines = () => lines.filter((line) => line.msg === "queue entry set aside");

let pool: PgPool;
let redis: Redis;
beforeAll(() => {
  pool = createPgPool({ url: database.url, max: 2 });
  redis = new Redis(stack.redisUrl);
});
afterAll(async () => {
  alertsClient.close();
  redis.disconnect();
  await pool?.end();
});
beforeEach(() => {
  lines = [];
});

async function aMonitor(teamId: string): Promise<{ id: string; teamId: string }> {
  const id = `mon_${randomUUID().replaceAll("-", "")}`;
  await database.db.query(
    `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                    grace_seconds, severity, reopen_window_seconds, created_at, updated_at)
     VALUES ($1, $2, $1 || '_url', $1, 'up', true, 300, 60, 'sev2', 3600, now(), now())`,
    [id, teamId],
  );
  return { id, teamId };
}

const action = (monitorId: string, teamId: string, kind: "raise" | "resolve", metadata: string | null) =>
  ({
    monitorId,
    teamId,
    kind,
    title: kind === "raise" ? `${monitorId} is down` : "",
    description: "",
    severity: "sev2",
    groupKey: `monitor:${monitorId}`,
    metadata,
    reopenWindowSeconds: 3600,
    repeatIntervalSeconds: null,
    alertQuotaMonthly: 0,
    createdAt: new Date(Date.now() - 1_000),
  }) satisfies IncidentActionRow;

describe("incident actions", () => {
  it("sets an action alerts refuses as invalid aside, counts and logs it once, and sends the ones behind it", async () => {
    const teamId = `team_${randomUUID()}`;
    const [first, second] = [await aMonitor(teamId), await aMonitor(teamId)];
    // The poison: metadata that is not a JSON object (a row written by hand, say), which alerts
    // refuses per item (TRIGGER_OUTCOME_INVALID). Its monitor's resolve waits behind it.
    await insertIncidentActions(database.orm.em.fork(), [
      action(first.id, teamId, "raise", "[1]"),
      action(first.id, teamId, "resolve", null),
      action(second.id, teamId, "raise", JSON.stringify({ reason: "missed heartbeat" })),
    ]);
    const before = await inProcessCounter(SET_ASIDE, { queue: "incident_actions" });
    const worker = new IncidentWorker(database.orm, alertsOverGrpc(alertsClient), log);

    for (let pass = 0; pass < 5 && (await worker.runOnce()); pass++) {}

    const { rows } = await database.db.query(
      `SELECT monitor_id, kind, done_at IS NOT NULL AS done, outcome, last_error
         FROM monitors.incident_actions WHERE team_id = $1 ORDER BY id`,
      [teamId],
    );
    expect(rows).toEqual([
      { monitor_id: first.id, kind: "raise", done: true, outcome: "invalid", last_error: "TRIGGER_OUTCOME_INVALID" },
      { monitor_id: first.id, kind: "resolve", done: true, outcome: "resolved", last_error: null },
      { monitor_id: second.id, kind: "raise", done: true, outcome: "created", last_error: null },
    ]);
    expect(await inProcessCounter(SET_ASIDE, { queue: "incident_actions" })).toBe(before + 1);
    expect(setAsideLines()).toEqual([
      expect.objectContaining({
        level: 40,
        queue: "incident_actions",
        monitorId: first.id,
        kind: "raise",
        reason: "TRIGGER_OUTCOME_INVALID",
      }),
    ]);
  });
});

describe("setting an incident action aside once", () => {
  it("marks it only while it is not done: one another replica finished is not counted again", async () => {
    const teamId = `team_${randomUUID()}`;
    const monitor = await aMonitor(teamId);
    await insertIncidentActions(database.orm.em.fork(), [action(monitor.id, teamId, "raise", null)]);
    const { rows } = await database.db.query<{ id: string }>(
      "SELECT id::text AS id FROM monitors.incident_actions WHERE monitor_id = $1",
      [monitor.id],
    );
    const actionId = (rows[0] as { id: string }).id;
    expect(await setAsideIncidentAction(database.orm.em.fork(), actionId, "TRIGGER_OUTCOME_INVALID")).toBe(true);
    expect(await setAsideIncidentAction(database.orm.em.fork(), actionId, "TRIGGER_OUTCOME_INVALID")).toBe(false);
  });
});

describe("the ping spool", () => {
  it("dead-letters an unreadable entry and one the database refuses, counts them, and applies the pings behind", async () => {
    // A spool of its own (keys are named after the database in the URL), so the stack's monitors never drain it.
    const spool = new PingSpool(redis, `postgres://localhost/spool_set_aside_${process.pid}_${Date.now()}`);
    try {
      const monitor = await aMonitor(`team_${randomUUID()}`);
      const start = Date.now();
      // Ahead of the good pings: text that is no ping, and a ping whose key PostgreSQL refuses (22P02).
      await redis.xadd(spool.key, "*", "ping", "{not json");
      await spool.append(aPingItem(monitor, { pingId: "not-a-uuid", receivedAt: new Date(start) }));
      await spool.append(aPingItem(monitor, { status: "down", reason: "a", receivedAt: new Date(start + 1) }));
      await spool.append(aPingItem(monitor, { status: "up", receivedAt: new Date(start + 2) }));
      const before = await inProcessCounter(SET_ASIDE, { queue: "ping_spool" });
      const lastKnown = new LastKnownMonitors();
      const recorder = new PingRecorder({ pool, spool, lastKnown, log, onIncident: async () => undefined });

      while (await drainSpool({ pool, spool, recorder, lastKnown, log, onIncident: () => undefined })) {}

      const { rows } = await database.db.query(
        "SELECT status, reason FROM monitors.pings WHERE monitor_id = $1 ORDER BY id",
        [monitor.id],
      );
      expect(rows).toEqual([
        { status: "down", reason: "a" },
        { status: "up", reason: null },
      ]);
      expect(await spool.length()).toBe(0);
      const dead = (await redis.xrange(`${spool.key}:dead`, "-", "+")).map(([, fields]) => fields[3]);
      expect(dead).toEqual(["unreadable", "SQLSTATE 22P02"]);
      expect(recorder.spooling).toBe(false);
      expect(await inProcessCounter(SET_ASIDE, { queue: "ping_spool" })).toBe(before + 2);
      expect(setAsideLines().map((line) => [line.queue, line.reason])).toEqual([
        ["ping_spool", "unreadable"],
        ["ping_spool", "SQLSTATE 22P02"],
      ]);
    } finally {
      await redis.del(spool.key, `${spool.key}:dead`, `${spool.key}:drain-lock`);
    }
  });
});
