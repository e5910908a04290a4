// Alerts' queues against a real PostgreSQL: an entry that can never go through (a row PostgreSQL
// refuses, an event nobody can route) is set aside, counted and logged once, and the entries queued
// behind it go through. A CHECK constraint added by a test stands for any refusal of a row.
import "../support/in-process-metrics.ts";
import { createPgPool, type PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AlertService } from "../../services/alerts/src/alerts/alert-service.ts";
import { foldTriggers } from "../../services/alerts/src/alerts/fold-triggers.ts";
import { alertsKeyring, openAlertsDatabase } from "../../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { ChannelSealer } from "../../services/alerts/src/notifications/channels/channel-credentials.ts";
import { ChannelService } from "../../services/alerts/src/notifications/channels/channel-service.ts";
import { DeliveryStore } from "../../services/alerts/src/notifications/deliveries/delivery-store.ts";
import { Dispatcher } from "../../services/alerts/src/notifications/deliveries/dispatcher.ts";
import { expandOutbox } from "../../services/alerts/src/notifications/deliveries/expand-outbox.ts";
import { setAsideOutboxEvent } from "../../services/alerts/src/notifications/deliveries/outbox-expansion-queue.ts";
import { createHttpSender } from "../../services/alerts/src/notifications/deliveries/send-http.ts";
import { sendDueReminders } from "../../services/alerts/src/reminders/send-reminders.ts";
import { setAsideReminder } from "../../services/alerts/src/reminders/take-due-reminders.ts";
import { TEST_DATABASE_SERVER, useTestDatabase } from "../support/database.ts";
import { inProcessCounter } from "../support/in-process-metrics.ts";
import { receiversClosedAfterEach } from "../support/receiver.ts";

const databaseName = `pulsegate_it_alerts_set_aside_${process.pid}`;
const config = loadAlertsConfig({ DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`, DB_POOL_MAX: "5" });
const database = useTestDatabase(databaseName, () => openAlertsDatabase(config, createLogger("test", "silent")));
const startReceiver = receiversClosedAfterEach();
const SET_ASIDE = "pulsegate_queue_set_aside_total";

let pool: PgPool;
let channels: ChannelService;
let teamId = "";
let teams = 0;
let lines: Record<string, unknown>[] = [];
const log = createLogger("alerts-set-aside-test", "info", {
  write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
});
const setAsideLines = () => lines.filter((line) => line.msg === "queue entry set aside");

beforeAll(() => {
  pool = createPgPool({ url: database.url, max: 2 });
  channels = new ChannelService(database.orm, {
    allowPrivateNetworks: true,
    sealer: new ChannelSealer(alertsKeyring(config)),
  });
});
afterAll(() => pool?.end());
beforeEach(() => {
  teamId = `team_set_aside_${process.pid}_${++teams}`;
  lines = [];
});

async function trigger(title: string): Promise<string> {
  const [result] = await foldTriggers(pool, [
    {
      teamId,
      source: "webhook",
      sourceId: "wh_test",
      title,
      description: "",
      severity: "sev2",
      metadataJson: null,
      metadata: null,
      groupKey: null,
      reopenWindowSeconds: 3_600,
      alertQuotaMonthly: 0,
      receivedAt: new Date(),
    },
  ]);
  if (!result || !("alertId" in result)) throw new Error("not folded");
  return result.alertId;
}

/** A constraint the table keeps for one test only: PostgreSQL refuses what breaks it (23514). */
async function refusing(table: string, check: string, during: () => Promise<void>): Promise<void> {
  await database.db.query(`ALTER TABLE ${table} ADD CONSTRAINT test_refused CHECK (${check}) NOT VALID`);
  try {
    await during();
  } finally {
    await database.db.query(`ALTER TABLE ${table} DROP CONSTRAINT test_refused`);
  }
}

describe("outbox expansion", () => {
  it("sets an event nobody can route aside, counts and logs it once, and expands the events behind it", async () => {
    const poisonedTeam = teamId;
    await channels.create(teamId, { kind: "webhook", name: "p", url: "http://127.0.0.1:9/p", enabled: true });
    // A corrupt policy row (written by hand, say): this team's events cannot be routed.
    await database.db.query(
      `INSERT INTO alerts.notification_policies (team_id, routes, updated_at) VALUES ($1, '{"broken": true}', now())`,
      [poisonedTeam],
    );
    const poisoned = await trigger("Poisoned");
    teamId = `${poisonedTeam}_neighbour`;
    const { channel: neighbourChannel } = await channels.create(teamId, {
      kind: "webhook",
      name: "n",
      url: "http://127.0.0.1:9/n",
      enabled: true,
    });
    const neighbour = await trigger("Neighbour");
    const before = await inProcessCounter(SET_ASIDE, { queue: "outbox_expansion" });

    while ((await expandOutbox(database.orm, { batchSize: 100, maxAttempts: 3, log })) > 0) {}

    const store = new DeliveryStore(database.orm);
    expect((await store.listForAlert(neighbour)).map((delivery) => delivery.channelId)).toEqual([neighbourChannel.id]);
    expect(await store.listForAlert(poisoned)).toEqual([]);
    const { rows } = await database.db.query(
      "SELECT set_aside_at IS NOT NULL AS set_aside, set_aside_reason FROM alerts.outbox WHERE alert_id = $1",
      [poisoned],
    );
    expect(rows).toEqual([{ set_aside: true, set_aside_reason: "TypeError" }]);
    expect(await inProcessCounter(SET_ASIDE, { queue: "outbox_expansion" })).toBe(before + 1);
    expect(setAsideLines()).toEqual([
      expect.objectContaining({ level: 40, queue: "outbox_expansion", reason: "TypeError" }),
    ]);
  });
});

describe("the expansion's queue (alerts.outbox_pending)", () => {
  it("follows the outbox row for every writer: the previous release's events, its marks, an operator's retry", async () => {
    await channels.create(teamId, { kind: "webhook", name: "q", url: "http://127.0.0.1:9/q", enabled: true });
    const alertId = await trigger("Queued");
    const expandAll = async () => {
      while ((await expandOutbox(database.orm, { batchSize: 100, maxAttempts: 3, log })) > 0) {}
    };
    await expandAll();
    const ids = async (sql: string) => (await database.db.query<{ id: string }>(sql, [alertId])).rows.map((r) => r.id);
    const queued = () =>
      ids(
        "SELECT q.outbox_id::text AS id FROM alerts.outbox_pending q JOIN alerts.outbox o ON o.id = q.outbox_id WHERE o.alert_id = $1 ORDER BY 1",
      );
    const delivered = () =>
      ids("SELECT outbox_id::text AS id FROM alerts.deliveries WHERE alert_id = $1 ORDER BY outbox_id");
    const [created] = await delivered();
    expect(created).toBeDefined();
    expect(await queued()).toEqual([]);

    // Written by code that knows nothing of the queue (the previous release): a plain INSERT.
    const copy = async () =>
      (
        await ids(`INSERT INTO alerts.outbox (team_id, alert_id, event_type, payload, created_at)
                   SELECT team_id, alert_id, event_type, payload, now() FROM alerts.outbox WHERE alert_id = $1
                    ORDER BY id LIMIT 1 RETURNING id::text AS id`)
      )[0] as string;
    const unaware = await copy();
    // Expanded by the previous release, which marks the row: it leaves the queue.
    const markedElsewhere = await copy();
    await database.db.query("UPDATE alerts.outbox SET expanded_at = now() WHERE id = $1", [markedElsewhere]);
    expect(await queued()).toEqual([unaware]);

    await expandAll();
    expect(await delivered()).toEqual([created, unaware]);
    expect(await queued()).toEqual([]);

    // An operator's retry of an event set aside (docs/operations.md) queues it again.
    await database.db.query(
      "UPDATE alerts.outbox SET expanded_at = NULL, set_aside_at = NULL, set_aside_reason = NULL WHERE id = $1",
      [markedElsewhere],
    );
    expect(await queued()).toEqual([markedElsewhere]);
    await expandAll();
    expect(await delivered()).toEqual([created, unaware, markedElsewhere]);
  });
});

describe("deliveries", () => {
  it("fails a delivery whose outcome PostgreSQL refuses, counts it, and sends the alert's later events", async () => {
    // The poison: the first event of an alert, which its receiver refuses (418) and whose failure
    // PostgreSQL then refuses to store; its resolve waits behind it on the same channel.
    const receiver = await startReceiver((request) =>
      request.headers["x-pulsegate-event"] === "alert.created" && request.raw.toString().includes("Poison") ? 418 : 200,
    );
    const { channel } = await channels.create(teamId, {
      kind: "slack",
      name: "#ops",
      url: receiver.url(),
      enabled: true,
    });
    const poisoned = await trigger("Poison");
    await new AlertService(database.orm).resolve(poisoned);
    const neighbour = await trigger("Neighbour");
    const before = await inProcessCounter(SET_ASIDE, { queue: "deliveries" });
    const dispatcher = new Dispatcher({
      orm: database.orm,
      log,
      sender: createHttpSender({ allowPrivateNetworks: true, timeoutMs: 1_000 }),
      sign: () => Promise.reject(new Error("slack deliveries are not signed")),
      sealer: new ChannelSealer(alertsKeyring(config)),
      health: { disableAfterMs: 86_400_000, minFailures: 5 },
      maxAttempts: 3,
      attemptTimeoutMs: 1_000,
      pollMs: 50,
      backoff: { base: 100, max: 500 },
      concurrency: 4,
    });

    await refusing("alerts.deliveries", "last_status_code IS DISTINCT FROM 418", async () => {
      dispatcher.start();
      try {
        await receiver.waitFor(
          (requests) =>
            requests.filter((request) => request.headers["x-pulsegate-event"] === "alert.resolved").length > 0,
          "the poisoned alert's resolve",
        );
        await receiver.waitFor(
          (requests) => requests.some((request) => request.raw.toString().includes("Neighbour")),
          "the neighbour's notification",
        );
      } finally {
        await dispatcher.stop();
      }
    });

    const store = new DeliveryStore(database.orm);
    const [created, resolved] = await store.listForAlert(poisoned);
    expect(created).toMatchObject({
      channelId: channel.id,
      eventType: "alert.created",
      status: "failed",
      attempts: 1,
      lastError: "set aside: its outcome was refused (SQLSTATE 23514)",
    });
    expect(resolved).toMatchObject({ eventType: "alert.resolved", status: "delivered" });
    expect(await store.listForAlert(neighbour)).toEqual([expect.objectContaining({ status: "delivered" })]);
    // Sent once: set aside, it is not sent again when a lease runs out.
    const poisonSends = receiver.requests.filter((request) => request.raw.toString().includes("Poison"));
    expect(poisonSends.map((request) => request.headers["x-pulsegate-event"])).toEqual([
      "alert.created",
      "alert.resolved",
    ]);
    expect(await inProcessCounter(SET_ASIDE, { queue: "deliveries" })).toBe(before + 1);
    expect(setAsideLines()).toEqual([
      expect.objectContaining({
        level: 40,
        queue: "deliveries",
        deliveryId: created?.id,
        reason: "SQLSTATE 23514",
      }),
    ]);
  });
});

describe("reminders", () => {
  it("sets an alert whose reminder PostgreSQL refuses aside, counts it, and writes the reminders behind it", async () => {
    const poisoned = await trigger("Poisoned reminder");
    const others = [await trigger("Reminder one"), await trigger("Reminder two")];
    // The poisoned alert is the most overdue: first in the pass.
    for (const [index, alertId] of [poisoned, ...others].entries()) {
      await database.db.query(
        `UPDATE alerts.alerts SET repeat_interval_seconds = 600, next_reminder_at = now() - make_interval(mins => $2)
          WHERE id = $1`,
        [alertId, 10 - index],
      );
    }
    const before = await inProcessCounter(SET_ASIDE, { queue: "reminders" });

    let pass = { sent: 0, full: false };
    await refusing(
      "alerts.outbox",
      "event_type <> 'alert.reminder' OR payload->'alert'->>'title' <> 'Poisoned reminder'",
      async () => {
        pass = await sendDueReminders(pool, new Date(), log);
      },
    );

    expect(pass).toEqual({ sent: 2, full: false });
    const { rows: reminders } = await database.db.query(
      "SELECT alert_id FROM alerts.outbox WHERE event_type = 'alert.reminder' AND team_id = $1 ORDER BY alert_id",
      [teamId],
    );
    expect(reminders.map((row) => row.alert_id)).toEqual([...others].sort());
    const { rows } = await database.db.query(
      `SELECT next_reminder_at, reminder_set_aside_at IS NOT NULL AS set_aside, reminder_set_aside_reason
         FROM alerts.alerts WHERE id = $1`,
      [poisoned],
    );
    expect(rows).toEqual([{ next_reminder_at: null, set_aside: true, reminder_set_aside_reason: "SQLSTATE 23514" }]);
    expect(await inProcessCounter(SET_ASIDE, { queue: "reminders" })).toBe(before + 1);
    expect(setAsideLines()).toEqual([
      expect.objectContaining({ level: 40, queue: "reminders", alertId: poisoned, reason: "SQLSTATE 23514" }),
    ]);
  });
});

describe("setting aside once", () => {
  it("marks an outbox event or a reminder only while it is still pending: one another replica finished is not counted again", async () => {
    const alertId = await trigger("Set aside once");
    const { rows } = await database.db.query<{ id: string }>(
      "SELECT id::text AS id FROM alerts.outbox WHERE alert_id = $1",
      [alertId],
    );
    const eventId = (rows[0] as { id: string }).id;
    expect(await setAsideOutboxEvent(database.orm.em.fork(), eventId, "TypeError")).toBe(true);
    // Set aside (or expanded) already, by this replica or another: nothing to mark, nothing to report.
    expect(await setAsideOutboxEvent(database.orm.em.fork(), eventId, "RangeError")).toBe(false);
    const { rows: marked } = await database.db.query(
      "SELECT set_aside_reason FROM alerts.outbox WHERE id = $1 AND expanded_at IS NOT NULL",
      [eventId],
    );
    expect(marked).toEqual([{ set_aside_reason: "TypeError" }]);

    await database.db.query(
      "UPDATE alerts.alerts SET repeat_interval_seconds = 600, next_reminder_at = now() WHERE id = $1",
      [alertId],
    );
    expect(await setAsideReminder(pool, alertId, "SQLSTATE 23514")).toBe(true);
    expect(await setAsideReminder(pool, alertId, "SQLSTATE 23514")).toBe(false);
  });
});
