import { createLogger } from "@pulsegate/runtime/logger";
import { beforeEach, describe, expect, it } from "vitest";
import { openMonitorsDatabase } from "../../services/monitors/src/app.ts";
import { loadMonitorsConfig } from "../../services/monitors/src/config.ts";
import {
  MONITORS_RETENTION_LOCK,
  type MonitorHistoryRetention,
  pruneMonitorHistory,
} from "../../services/monitors/src/retention/prune-monitor-history.ts";
import { DELETE_OLD_PINGS } from "../../services/monitors/src/retention/prune-pings.ts";
import { TEST_DATABASE_SERVER, useTestDatabase } from "../support/database.ts";

const server = TEST_DATABASE_SERVER;
const databaseName = `pulsegate_it_monitor_retention_${process.pid}`;
const log = createLogger("test", "silent");
const config = loadMonitorsConfig({ DATABASE_URL: `${server}/${databaseName}`, DB_POOL_MAX: "5" });
const retention: MonitorHistoryRetention = {
  pingRetentionDays: config.PING_RETENTION_DAYS,
  incidentActionRetentionDays: config.INCIDENT_ACTION_RETENTION_DAYS,
};
const OLD_PING = 100;
const RECENT = 1;

const database = useTestDatabase(databaseName, () => openMonitorsDatabase(config, log), server);

beforeEach(async () => {
  await database.db.query(
    "TRUNCATE monitors.pings, monitors.incident_actions, monitors.due_checks, monitors.monitors, monitors.idempotency_keys RESTART IDENTITY",
  );
});

/** bigint ids arrive as text: compare them as numbers. */
const byNumber = (a: string, b: string) => Number(a) - Number(b);

async function monitor(id: string): Promise<string> {
  await database.db.query(
    `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                    grace_seconds, severity, reopen_window_seconds, created_at, updated_at)
     VALUES ($1, 'team_1', $1 || '_url', $1, 'up', true, 300, 60, 'sev2', 3600, now(), now())`,
    [id],
  );
  return id;
}

/** `count` pings received `ageDays` ago (a second apart, oldest first), returning their ids in order. */
async function pings(monitorId: string, count: number, ageDays: number): Promise<string[]> {
  const { rows } = await database.db.query<{ id: string }>(
    `INSERT INTO monitors.pings (ping_key, monitor_id, team_id, status, method, received_at, recorded_at, spooled)
     SELECT gen_random_uuid(), $1, 'team_1', 'up', 'POST', t, t, false
       FROM (SELECT now() - make_interval(days => $3::int) + g * interval '1 second' AS t
               FROM generate_series(1, $2::int) g ORDER BY g) s
     RETURNING id::text AS id`,
    [monitorId, count, ageDays],
  );
  return rows.map((row) => row.id).sort(byNumber);
}

async function pingIds(monitorId: string): Promise<string[]> {
  const { rows } = await database.db.query<{ id: string }>(
    "SELECT id::text AS id FROM monitors.pings WHERE monitor_id = $1",
    [monitorId],
  );
  return rows.map((row) => row.id).sort(byNumber);
}

/** Monitors whose history tells what must stay; returns what each must keep. */
async function pingFixture(): Promise<Map<string, string[]>> {
  const keep = new Map<string, string[]>();
  // 150 old pings: the newest 100 stay.
  keep.set(await monitor("mon_busy_old"), (await pings("mon_busy_old", 150, OLD_PING)).slice(50));
  // 5 old pings: all within its newest 100, all stay.
  keep.set(await monitor("mon_quiet"), await pings("mon_quiet", 5, OLD_PING));
  // 120 old then 30 recent: the recent ones and the newest 70 old ones stay.
  await monitor("mon_mixed");
  const mixedOld = await pings("mon_mixed", 120, OLD_PING);
  keep.set("mon_mixed", [...mixedOld.slice(50), ...(await pings("mon_mixed", 30, RECENT))]);
  // 30 old then 100 recent: the old ones are beyond the newest 100, they go.
  await monitor("mon_renewed");
  await pings("mon_renewed", 30, OLD_PING);
  keep.set("mon_renewed", await pings("mon_renewed", 100, RECENT));
  // 200 recent pings: none old, all stay.
  keep.set(await monitor("mon_recent"), await pings("mon_recent", 200, RECENT));
  // No pings at all.
  keep.set(await monitor("mon_silent"), []);
  return keep;
}
const PRUNABLE_PINGS = 50 + 50 + 30;

async function expectKept(keep: Map<string, string[]>): Promise<void> {
  for (const [monitorId, ids] of keep) expect({ monitorId, ids: await pingIds(monitorId) }).toEqual({ monitorId, ids });
}

type ActionState = { ageDays: number; doneDaysAgo: number | null; leasedForSeconds?: number };
async function incidentAction(monitorId: string, state: ActionState): Promise<string> {
  const { rows } = await database.db.query<{ id: string }>(
    `INSERT INTO monitors.incident_actions (monitor_id, team_id, kind, title, description, severity, group_key,
                                            reopen_window_seconds, alert_quota_monthly, created_at, next_attempt_at,
                                            done_at, lease_until, outcome)
     VALUES ($1, 'team_1', 'raise', 'Down', '', 'sev2', 'monitor:' || $1, 3600, 0,
             now() - make_interval(days => $2::int), now() - make_interval(days => $2::int),
             now() - make_interval(days => $3::int), now() + make_interval(secs => $4::int),
             CASE WHEN $3::int IS NULL THEN NULL ELSE 'created' END)
     RETURNING id::text AS id`,
    [monitorId, state.ageDays, state.doneDaysAgo, state.leasedForSeconds ?? null],
  );
  return rows[0]?.id ?? "";
}

/** An idempotency key claimed `ageHours` ago; returns its key. */
async function idempotencyKey(ageHours: number): Promise<string> {
  const key = `key-${ageHours}h`;
  await database.db.query(
    `INSERT INTO monitors.idempotency_keys (team_id, key, fingerprint, answer, created_at)
     VALUES ('team_1', $1, 'f', '{}', now() - make_interval(hours => $2::int))`,
    [key, ageHours],
  );
  return key;
}

async function idempotencyKeys(): Promise<string[]> {
  const { rows } = await database.db.query<{ key: string }>("SELECT key FROM monitors.idempotency_keys ORDER BY key");
  return rows.map((row) => row.key);
}

async function actionIds(): Promise<string[]> {
  const { rows } = await database.db.query<{ id: string }>("SELECT id::text AS id FROM monitors.incident_actions");
  return rows.map((row) => row.id).sort(byNumber);
}

describe("monitor history retention", () => {
  it("deletes old pings beyond each monitor's newest 100, and done incident actions older than a week", async () => {
    const keep = await pingFixture();
    const doneLongAgo = await incidentAction("mon_quiet", { ageDays: 9, doneDaysAgo: 8 });
    const doneRecently = await incidentAction("mon_quiet", { ageDays: 9, doneDaysAgo: RECENT });
    const pendingOld = await incidentAction("mon_busy_old", { ageDays: 30, doneDaysAgo: null });
    const leasedOld = await incidentAction("mon_busy_old", { ageDays: 30, doneDaysAgo: null, leasedForSeconds: 30 });
    const doneButLeased = await incidentAction("mon_mixed", { ageDays: 9, doneDaysAgo: 8, leasedForSeconds: 30 });
    await idempotencyKey(25);
    const youngKey = await idempotencyKey(23);

    const result = await pruneMonitorHistory(database.orm, retention);

    expect(result).toEqual({
      skipped: false,
      incidentActions: 1,
      pings: PRUNABLE_PINGS,
      idempotencyKeys: 1,
      more: false,
    });
    expect(await idempotencyKeys()).toEqual([youngKey]);
    await expectKept(keep);
    expect(await actionIds()).toEqual([doneRecently, pendingOld, leasedOld, doneButLeased]);
    expect(await actionIds()).not.toContain(doneLongAgo);
    // Monitors are never pruned; a second run finds nothing.
    const { rows } = await database.db.query<{ n: number }>("SELECT count(*)::int AS n FROM monitors.monitors");
    expect(rows[0]?.n).toBe(keep.size);
    expect(await pruneMonitorHistory(database.orm, retention)).toEqual({
      skipped: false,
      incidentActions: 0,
      pings: 0,
      idempotencyKeys: 0,
      more: false,
    });
  });

  it("honours the configured horizons", async () => {
    const keep = await pingFixture();
    const done = await incidentAction("mon_quiet", { ageDays: 9, doneDaysAgo: 8 });
    expect(
      await pruneMonitorHistory(database.orm, { pingRetentionDays: OLD_PING + 1, incidentActionRetentionDays: 9 }),
    ).toMatchObject({ incidentActions: 0, pings: 0 });
    expect(await actionIds()).toEqual([done]);
    expect(await pruneMonitorHistory(database.orm, retention)).toMatchObject({
      incidentActions: 1,
      pings: PRUNABLE_PINGS,
    });
    await expectKept(keep);
  });

  it("deletes in small batches across monitors, stops at the cap, and ends with the same result", async () => {
    const keep = await pingFixture();
    const limits = { ...retention, batchSize: 7, maxBatches: 3 };

    const first = await pruneMonitorHistory(database.orm, limits);
    expect(first).toEqual({ skipped: false, incidentActions: 0, pings: 21, idempotencyKeys: 0, more: true });
    let total = first.pings;
    let runs = 1;
    for (let more = first.more; more; runs++) {
      const next = await pruneMonitorHistory(database.orm, limits);
      total += next.pings;
      more = next.more;
    }
    expect(total).toBe(PRUNABLE_PINGS);
    // 130 rows at 21 per run: seven runs, the last one short.
    expect(runs).toBe(7);
    await expectKept(keep);
  });

  it("stands aside while another replica holds the retention lock", async () => {
    const keep = await pingFixture();
    const other = await database.db.connect();
    try {
      await other.query("BEGIN");
      await other.query("SELECT pg_advisory_xact_lock(hashtext($1))", [MONITORS_RETENTION_LOCK]);
      expect(await pruneMonitorHistory(database.orm, retention)).toEqual({
        skipped: true,
        incidentActions: 0,
        pings: 0,
        idempotencyKeys: 0,
        more: false,
      });
      const { rows } = await database.db.query<{ n: number }>("SELECT count(*)::int AS n FROM monitors.pings");
      expect(rows[0]?.n).toBe(150 + 5 + 150 + 130 + 200);
    } finally {
      await other.query("COMMIT");
      other.release();
    }
    expect(await pruneMonitorHistory(database.orm, retention)).toMatchObject({ pings: PRUNABLE_PINGS });
    await expectKept(keep);
  });

  it("finds old pings through the monitor's index of its pings by id, and no longer needs one by time", async () => {
    await pingFixture();
    const client = await database.db.connect();
    try {
      // A fixture this small is read whole at once; at any size worth pruning the planner avoids that
      // (seq scans off here stand for it): what is checked is that an index serves every step.
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      let at = 0;
      const sql = DELETE_OLD_PINGS.replace(/\?/g, () => `$${++at}`);
      const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, [99, 500, "", 90, 90, 500]);
      const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
      expect(plan).toContain("pings_monitor_idx");
      expect(plan).not.toContain("pings_monitor_received_idx");
      expect(plan).not.toMatch(/Seq Scan on pings/);
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });

  it("defaults to 90 days for pings, 7 for incident actions, hourly", () => {
    const defaults = loadMonitorsConfig({});
    expect(defaults.PING_RETENTION_DAYS).toBe(90);
    expect(defaults.INCIDENT_ACTION_RETENTION_DAYS).toBe(7);
    expect(defaults.RETENTION_INTERVAL_MS).toBe(3_600_000);
  });
});
