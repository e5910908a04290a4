// The ping batch against a real database: one transaction per batch, the pings of one monitor
// applied in arrival order, the heartbeat quota counted exactly in the same transaction, and each item's
// own outcome whatever its neighbours'.
import { randomUUID } from "node:crypto";
import { createPgPool, type PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMonitorsDatabase } from "../../services/monitors/src/app.ts";
import { loadMonitorsConfig } from "../../services/monitors/src/config.ts";
import { applyPingBatch } from "../../services/monitors/src/pings/apply-ping-batch.ts";
import type { PingItem } from "../../services/monitors/src/pings/ping-item.ts";
import { aPingItem } from "../../services/monitors/src/testing/ping-item.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";

const databaseName = `pulsegate_it_ping_batch_${process.pid}`;
const url = `${TEST_DATABASE_SERVER}/${databaseName}`;
let pool: PgPool;
let db: pg.Pool;
let closeOrm: () => Promise<void>;

beforeAll(async () => {
  await recreateDatabase(databaseName);
  const orm = await openMonitorsDatabase(
    loadMonitorsConfig({ DATABASE_URL: url, DB_POOL_MAX: "2" }),
    createLogger("test", "silent"),
  );
  closeOrm = () => orm.close();
  pool = createPgPool({ url, max: 4 });
  db = new pg.Pool({ connectionString: url, max: 2 });
});

afterAll(async () => {
  await pool?.end();
  await db?.end();
  await closeOrm?.();
  await dropDatabase(databaseName);
});

let serial = 0;
async function monitor(teamId: string, status = "idle"): Promise<string> {
  const id = `mon_it_${++serial}`;
  await db.query(
    `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                    grace_seconds, severity, reopen_window_seconds, created_at, updated_at)
     VALUES ($1::text, $2, $3, $1::text, $4, false, 300, 60, 'sev2', 3600, now(), now())`,
    [id, teamId, randomUUID(), status],
  );
  return id;
}

const ping = (monitorId: string, teamId: string, extra: Partial<PingItem> = {}): PingItem =>
  aPingItem({ id: monitorId, teamId }, extra);

describe("applyPingBatch", () => {
  it("applies the pings of one monitor in arrival order, each seeing the state the previous left", async () => {
    const teamId = `team_order_${process.pid}`;
    const id = await monitor(teamId);
    const start = Date.now();
    const results = await applyPingBatch(
      pool,
      [
        ping(id, teamId, { status: "down", reason: "disk", receivedAt: new Date(start) }),
        ping(id, teamId, { status: "down", reason: "disk", receivedAt: new Date(start + 1) }),
        ping(id, teamId, { status: "down", reason: "memory", receivedAt: new Date(start + 2) }),
        ping(id, teamId, { status: "up", receivedAt: new Date(start + 3) }),
      ],
      { spooled: false, now: new Date() },
    );
    expect(results.map((result) => result.outcome)).toEqual(["recorded", "recorded", "recorded", "recorded"]);
    // Down, the same reason again (nothing new), another reason (a new raise), up (the resolve).
    expect(results.map((result) => ("incidentActionId" in result ? result.incidentActionId !== null : null))).toEqual([
      true,
      false,
      true,
      true,
    ]);
    const { rows: pings } = await db.query(
      "SELECT status, reason FROM monitors.pings WHERE monitor_id = $1 ORDER BY id",
      [id],
    );
    expect(pings).toEqual([
      { status: "down", reason: "disk" },
      { status: "down", reason: "disk" },
      { status: "down", reason: "memory" },
      { status: "up", reason: null },
    ]);
    const { rows: actions } = await db.query(
      "SELECT kind FROM monitors.incident_actions WHERE monitor_id = $1 ORDER BY id",
      [id],
    );
    expect(actions.map((row) => row.kind)).toEqual(["raise", "raise", "resolve"]);
    const { rows: state } = await db.query(
      "SELECT status, incident_open, last_reason FROM monitors.monitors WHERE id = $1",
      [id],
    );
    expect(state).toEqual([{ status: "up", incident_open: false, last_reason: null }]);
  });

  it("counts the heartbeat quota exactly, in the same transaction, and gives each item its own outcome", async () => {
    const teamId = `team_quota_${process.pid}`;
    const ids = await Promise.all([monitor(teamId), monitor(teamId), monitor(teamId)]);
    const paused = await monitor(teamId, "paused");
    const limited = { heartbeatQuotaMonthly: 3 };
    const results = await applyPingBatch(
      pool,
      [
        ping(ids[0] as string, teamId, limited),
        ping("mon_nobody", teamId, limited),
        ping(ids[1] as string, teamId, limited),
        ping(paused, teamId, limited),
        ping(ids[2] as string, teamId, limited),
        ping(ids[0] as string, teamId, limited),
        ping(ids[1] as string, "team_someone_else", limited),
      ],
      { spooled: false, now: new Date() },
    );
    expect(results.map((result) => result.outcome)).toEqual([
      "recorded",
      "monitor_not_found",
      "recorded",
      "paused",
      "recorded",
      "quota_exhausted",
      "monitor_not_found",
    ]);
    const { rows } = await db.query("SELECT used FROM monitors.heartbeat_quota_usage WHERE team_id = $1", [teamId]);
    expect(rows).toEqual([{ used: 3 }]);
    // Concurrent batches of one team are counted exactly too: the usage row is locked by each.
    const more = await Promise.all(
      Array.from({ length: 4 }, () =>
        applyPingBatch(pool, [ping(ids[2] as string, teamId, { heartbeatQuotaMonthly: 5 })], {
          spooled: false,
          now: new Date(),
        }),
      ),
    );
    expect(more.flat().filter((result) => result.outcome === "recorded")).toHaveLength(2);
    const { rows: after } = await db.query("SELECT used FROM monitors.heartbeat_quota_usage WHERE team_id = $1", [
      teamId,
    ]);
    expect(after).toEqual([{ used: 5 }]);
  });

  it("counts concurrent batches of other monitors exactly: limited teams lock their usage row, unlimited ones add at the write", async () => {
    const limitedTeam = `team_lanes_limited_${process.pid}`;
    const unlimitedTeam = `team_lanes_free_${process.pid}`;
    const limitedIds = await Promise.all(Array.from({ length: 8 }, () => monitor(limitedTeam)));
    const freeIds = await Promise.all(Array.from({ length: 8 }, () => monitor(unlimitedTeam)));
    // Each batch has its own monitor (as the gateway's lanes send them), all at once.
    const outcomes = await Promise.all([
      ...limitedIds.map((id) =>
        applyPingBatch(pool, [ping(id, limitedTeam, { heartbeatQuotaMonthly: 5 })], {
          spooled: false,
          now: new Date(),
        }),
      ),
      ...freeIds.map((id) =>
        applyPingBatch(pool, [ping(id, unlimitedTeam), ping(id, unlimitedTeam)], { spooled: false, now: new Date() }),
      ),
    ]);
    const limitedOutcomes = outcomes
      .slice(0, 8)
      .flat()
      .map((result) => result.outcome);
    expect(limitedOutcomes.filter((outcome) => outcome === "recorded")).toHaveLength(5);
    expect(limitedOutcomes.filter((outcome) => outcome === "quota_exhausted")).toHaveLength(3);
    expect(
      outcomes
        .slice(8)
        .flat()
        .every((result) => result.outcome === "recorded"),
    ).toBe(true);
    const { rows } = await db.query(
      "SELECT team_id, used FROM monitors.heartbeat_quota_usage WHERE team_id = ANY($1) ORDER BY team_id",
      [[limitedTeam, unlimitedTeam]],
    );
    expect(rows).toEqual(
      [
        { team_id: unlimitedTeam, used: 16 },
        { team_id: limitedTeam, used: 5 },
      ].sort((a, b) => (a.team_id < b.team_id ? -1 : 1)),
    );
    const { rows: stored } = await db.query("SELECT count(*)::int AS n FROM monitors.pings WHERE team_id = ANY($1)", [
      [limitedTeam, unlimitedTeam],
    ]);
    expect(stored).toEqual([{ n: 21 }]);
  });

  it("takes spooled pings whatever the quota, keeps them as history on a paused monitor, and applies each once", async () => {
    const teamId = `team_spooled_${process.pid}`;
    const paused = await monitor(teamId, "paused");
    const once = ping(paused, teamId, { heartbeatQuotaMonthly: 1 });
    const first = await applyPingBatch(pool, [once, ping(paused, teamId, { heartbeatQuotaMonthly: 1 })], {
      spooled: true,
      now: new Date(),
    });
    expect(first.map((result) => result.outcome)).toEqual(["recorded", "recorded"]);
    const again = await applyPingBatch(pool, [once], { spooled: true, now: new Date() });
    expect(again.map((result) => result.outcome)).toEqual(["duplicate"]);
    const { rows } = await db.query("SELECT count(*)::int AS n FROM monitors.pings WHERE monitor_id = $1", [paused]);
    expect(rows).toEqual([{ n: 2 }]);
    const { rows: state } = await db.query("SELECT status FROM monitors.monitors WHERE id = $1", [paused]);
    expect(state).toEqual([{ status: "paused" }]);
  });
});
