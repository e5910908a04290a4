import { createLogger } from "@pulsegate/runtime/logger";
import { beforeEach, describe, expect, it } from "vitest";
import { openMonitorsDatabase } from "../../services/monitors/src/app.ts";
import { loadMonitorsConfig } from "../../services/monitors/src/config.ts";
import {
  claimIncidentActions,
  completeIncidentAction,
  isIncidentActionDone,
  retryIncidentAction,
} from "../../services/monitors/src/incidents/incident-action-queue.ts";
import type { IncidentActionRow } from "../../services/monitors/src/incidents/incident-action-row.ts";
import { insertIncidentActions } from "../../services/monitors/src/incidents/insert-incident-actions.ts";
import { selectOpenAlertIds } from "../../services/monitors/src/monitors/select-open-alert-ids.ts";
import { TEST_DATABASE_SERVER, useTestDatabase } from "../support/database.ts";

const server = TEST_DATABASE_SERVER;
const databaseName = `pulsegate_it_incident_queue_${process.pid}`;
const log = createLogger("test", "silent");
const config = loadMonitorsConfig({ DATABASE_URL: `${server}/${databaseName}`, DB_POOL_MAX: "5" });
const CLAIM = { leaseSeconds: 30, onlyId: null, limit: 20 };

const database = useTestDatabase(databaseName, () => openMonitorsDatabase(config, log), server);

beforeEach(async () => {
  await database.db.query("TRUNCATE monitors.incident_actions, monitors.monitors RESTART IDENTITY CASCADE");
  for (const id of ["mon_1", "mon_2"]) {
    await database.db.query(
      `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                      grace_seconds, severity, reopen_window_seconds, created_at, updated_at)
       VALUES ($1, 'team_1', $1 || '_url', $1, 'down', true, 300, 60, 'sev2', 3600, now(), now())`,
      [id],
    );
  }
});

function action(monitorId: string, kind: "raise" | "resolve"): IncidentActionRow {
  return {
    monitorId,
    teamId: "team_1",
    kind,
    title: kind === "raise" ? `${monitorId} is down` : "",
    description: "",
    severity: "sev2",
    groupKey: `monitor:${monitorId}`,
    metadata: kind === "raise" ? JSON.stringify({ reason: "missed heartbeat" }) : null,
    reopenWindowSeconds: 3600,
    repeatIntervalSeconds: null,
    alertQuotaMonthly: 0,
    createdAt: new Date(Date.now() - 1_000),
  };
}

/** Ids in insertion order (1, 2, 3 … after the truncate). */
async function insert(...actions: IncidentActionRow[]): Promise<void> {
  await insertIncidentActions(database.orm.em.fork(), actions);
}

const idsOf = (rows: { id: string }[]) => rows.map((row) => String(row.id)).sort();

describe("incident action queue", () => {
  it("claims the oldest pending action of each monitor once, then the next when it is done", async () => {
    await insert(action("mon_1", "raise"), action("mon_1", "resolve"), action("mon_2", "raise"));

    const first = await claimIncidentActions(database.orm.em.fork(), CLAIM);
    expect(idsOf(first)).toEqual(["1", "3"]);
    expect(first.map((row) => row.attempts)).toEqual([1, 1]);
    const raise = first.find((row) => String(row.id) === "1");
    expect(raise).toMatchObject({ monitor_id: "mon_1", kind: "raise", title: "mon_1 is down", severity: "sev2" });
    // Leased, and the resolve waits behind its monitor's raise.
    expect(await claimIncidentActions(database.orm.em.fork(), CLAIM)).toEqual([]);
    expect(await isIncidentActionDone(database.orm.em.fork(), "1")).toBe(false);

    await completeIncidentAction(database.orm.em.fork(), { id: "1", kind: "raise", monitor_id: "mon_1" }, "created", [
      "alert_a",
    ]);
    // A repeated completion (its outcome was lost) adds the alert once.
    await completeIncidentAction(database.orm.em.fork(), { id: "1", kind: "raise", monitor_id: "mon_1" }, "created", [
      "alert_a",
    ]);
    expect(await isIncidentActionDone(database.orm.em.fork(), "1")).toBe(true);
    expect(await selectOpenAlertIds(database.orm.em.fork(), "mon_1")).toEqual(["alert_a"]);

    const next = await claimIncidentActions(database.orm.em.fork(), CLAIM);
    expect(idsOf(next)).toEqual(["2"]);
    await completeIncidentAction(
      database.orm.em.fork(),
      { id: "2", kind: "resolve", monitor_id: "mon_1" },
      "resolved",
      ["alert_a"],
    );
    expect(await selectOpenAlertIds(database.orm.em.fork(), "mon_1")).toEqual([]);
    const { rows } = await database.db.query("SELECT outcome, alert_ids FROM monitors.incident_actions WHERE id = 2");
    expect(rows).toEqual([{ outcome: "resolved", alert_ids: ["alert_a"] }]);
    expect(await isIncidentActionDone(database.orm.em.fork(), "99")).toBeUndefined();
  });

  it("claims only the action asked for, and only when it is due", async () => {
    await insert(action("mon_1", "raise"), action("mon_1", "resolve"));
    expect(await claimIncidentActions(database.orm.em.fork(), { ...CLAIM, onlyId: "2" })).toEqual([]);
    expect(idsOf(await claimIncidentActions(database.orm.em.fork(), { ...CLAIM, onlyId: "1" }))).toEqual(["1"]);
  });

  it("a retry gives the lease back, waits out its delay and holds back the monitor's later actions", async () => {
    await insert(action("mon_1", "raise"), action("mon_1", "resolve"));
    expect(idsOf(await claimIncidentActions(database.orm.em.fork(), CLAIM))).toEqual(["1"]);
    await retryIncidentAction(database.orm.em.fork(), "1", { delaySeconds: 60, error: "alerts unavailable" });
    expect(await claimIncidentActions(database.orm.em.fork(), CLAIM)).toEqual([]);
    const { rows } = await database.db.query(
      `SELECT lease_until, last_error, next_attempt_at > now() + interval '50 seconds' AS waits
         FROM monitors.incident_actions WHERE id = 1`,
    );
    expect(rows).toEqual([{ lease_until: null, last_error: "alerts unavailable", waits: true }]);
    // Due again: claimed with its attempt counted a second time.
    await database.db.query("UPDATE monitors.incident_actions SET next_attempt_at = now() WHERE id = 1");
    const again = await claimIncidentActions(database.orm.em.fork(), CLAIM);
    expect(again.map((row) => [String(row.id), row.attempts])).toEqual([["1", 2]]);
  });

  it("steps around an action another transaction holds instead of waiting for it", async () => {
    await insert(action("mon_1", "raise"), action("mon_2", "raise"));
    const holder = await database.db.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM monitors.incident_actions WHERE id = 1 FOR UPDATE");
      const claimed = await claimIncidentActions(database.orm.em.fork(), CLAIM);
      expect(idsOf(claimed)).toEqual(["2"]);
    } finally {
      await holder.query("ROLLBACK");
      holder.release();
    }
    expect(idsOf(await claimIncidentActions(database.orm.em.fork(), CLAIM))).toEqual(["1"]);
  });
});
