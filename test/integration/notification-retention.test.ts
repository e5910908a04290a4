import { createLogger } from "@pulsegate/runtime/logger";
import { beforeEach, describe, expect, it } from "vitest";
import { openAlertsDatabase } from "../../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { ALERTS_RETENTION_LOCK, pruneNotifications } from "../../services/alerts/src/retention/prune-notifications.ts";
import { TEST_DATABASE_SERVER, useTestDatabase } from "../support/database.ts";

const server = TEST_DATABASE_SERVER;
const databaseName = `pulsegate_it_notification_retention_${process.pid}`;
const log = createLogger("test", "silent");
const config = loadAlertsConfig({ DATABASE_URL: `${server}/${databaseName}`, DB_POOL_MAX: "5" });
const RETENTION_DAYS = config.NOTIFY_RETENTION_DAYS;
const OLD = 40;
const RECENT = 1;

const database = useTestDatabase(databaseName, () => openAlertsDatabase(config, log), server);

beforeEach(async () => {
  await database.db.query(
    "TRUNCATE alerts.deliveries, alerts.outbox_pending, alerts.outbox, alerts.occurrences, alerts.alerts, alerts.channels, alerts.idempotency_keys RESTART IDENTITY",
  );
  await database.db.query(
    `INSERT INTO alerts.alerts (id, team_id, status, title, severity, occurrence_count, source, source_id,
                                first_seen_at, last_seen_at, created_at)
     VALUES ('al_1', 'team_1', 'resolved', 'Disk', 'sev2', 1, 'webhook', 'wh_1',
             now() - interval '60 days', now() - interval '60 days', now() - interval '60 days')`,
  );
  await database.db.query(
    `INSERT INTO alerts.occurrences (alert_id, team_id, outcome, source, source_id, title, severity, received_at)
     VALUES ('al_1', 'team_1', 'created', 'webhook', 'wh_1', 'Disk', 'sev2', now() - interval '60 days')`,
  );
});

/**
 * An outbox event created `ageDays` ago: expanded as this release leaves one (out of the queue, its row
 * as written), as the release before 0023 left one (`expanded_at` marked), or awaiting expansion.
 */
async function outboxEvent(ageDays: number, state: "expanded" | "marked" | "unexpanded" = "expanded"): Promise<string> {
  const { rows } = await database.db.query<{ id: string }>(
    `INSERT INTO alerts.outbox (team_id, alert_id, event_type, payload, created_at, expanded_at)
     VALUES ('team_1', 'al_1', 'alert.created', '{}', now() - make_interval(days => $1::int),
             CASE WHEN $2 THEN now() END)
     RETURNING id::text AS id`,
    [ageDays, state === "marked"],
  );
  const id = rows[0]?.id ?? "";
  if (state === "expanded") await database.db.query("DELETE FROM alerts.outbox_pending WHERE outbox_id = $1", [id]);
  return id;
}

let deliveryCount = 0;
/** A delivery of `outboxId`, created `ageDays` ago and last changed `updatedDaysAgo` ago. */
async function delivery(
  outboxId: string,
  status: "pending" | "delivered" | "failed" | "cancelled",
  options: { ageDays: number; updatedDaysAgo?: number; leasedForSeconds?: number },
): Promise<string> {
  const id = `dlv_${++deliveryCount}`;
  // One delivery per event and channel: each gets a channel of its own.
  await database.db.query(
    `INSERT INTO alerts.channels (id, team_id, kind, name, credentials_sealed, masked_url, enabled, created_at,
                                  updated_at)
     VALUES ($1::text, 'team_1', 'webhook', $1::text, '\\x00', 'https://example.com/…', true, now(), now())`,
    [`ch_${id}`],
  );
  await database.db.query(
    `INSERT INTO alerts.deliveries (id, outbox_id, channel_id, team_id, alert_id, event_type, status, attempts,
                                    max_attempts, next_attempt_at, locked_until, created_at, updated_at)
     VALUES ($1, $2::bigint, 'ch_' || $1, 'team_1', 'al_1', 'alert.created', $3, 1, 8, now() + interval '1 hour',
             now() + make_interval(secs => $4::int), now() - make_interval(days => $5::int),
             now() - make_interval(days => $6::int))`,
    [
      id,
      outboxId,
      status,
      options.leasedForSeconds ?? null,
      options.ageDays,
      options.updatedDaysAgo ?? options.ageDays,
    ],
  );
  return id;
}

async function ids(table: "alerts.deliveries" | "alerts.outbox"): Promise<string[]> {
  const { rows } = await database.db.query<{ id: string }>(`SELECT id::text AS id FROM ${table}`);
  return rows.map((row) => row.id).sort();
}

async function count(table: string): Promise<number> {
  const { rows } = await database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? -1;
}

describe("notification retention", () => {
  it("deletes final deliveries and spent outbox events older than the horizon, and nothing else", async () => {
    // All deliveries final and old: they go, then the event.
    const spent = await outboxEvent(OLD);
    const delivered = await delivery(spent, "delivered", { ageDays: OLD });
    const failed = await delivery(spent, "failed", { ageDays: OLD });
    // A pending delivery keeps its event, however old.
    const waiting = await outboxEvent(OLD);
    const cancelled = await delivery(waiting, "cancelled", { ageDays: OLD });
    const pending = await delivery(waiting, "pending", { ageDays: OLD });
    // Final but finished recently (a long retry): kept, and so is its event.
    const lateEvent = await outboxEvent(OLD);
    const lateFailure = await delivery(lateEvent, "failed", { ageDays: OLD, updatedDaysAgo: RECENT });
    // Under a lease: kept, whatever its status says.
    const leasedEvent = await outboxEvent(OLD);
    const leasedPending = await delivery(leasedEvent, "pending", { ageDays: OLD, leasedForSeconds: 300 });
    const leasedCancelled = await delivery(leasedEvent, "cancelled", { ageDays: OLD, leasedForSeconds: 300 });
    // Events without deliveries: routed nowhere (old: goes, as does one the previous release marked
    // expanded), awaiting expansion (kept), recent (kept).
    const routedNowhere = await outboxEvent(OLD);
    const unexpanded = await outboxEvent(OLD, "unexpanded");
    const recent = await outboxEvent(RECENT);
    const markedByPreviousRelease = await outboxEvent(OLD, "marked");
    const recentEvent = await outboxEvent(RECENT);
    const recentDelivered = await delivery(recentEvent, "delivered", { ageDays: RECENT });
    // Idempotency keys are kept a day, whatever the notifications' horizon.
    await database.db.query(
      `INSERT INTO alerts.idempotency_keys (team_id, key, fingerprint, answer, created_at)
       VALUES ('team_1', 'old', 'f', '{}', now() - interval '25 hours'), ('team_1', 'young', 'f', '{}', now() - interval '23 hours')`,
    );

    const result = await pruneNotifications(database.orm, { retentionDays: RETENTION_DAYS });

    expect(result).toEqual({ skipped: false, deliveries: 3, outbox: 3, idempotencyKeys: 1, more: false });
    const { rows: keys } = await database.db.query<{ key: string }>("SELECT key FROM alerts.idempotency_keys");
    expect(keys).toEqual([{ key: "young" }]);
    expect(await ids("alerts.deliveries")).toEqual(
      [pending, lateFailure, leasedPending, leasedCancelled, recentDelivered].sort(),
    );
    expect(await ids("alerts.outbox")).toEqual(
      [waiting, lateEvent, leasedEvent, unexpanded, recent, recentEvent].sort(),
    );
    for (const id of [delivered, failed, cancelled]) expect(await ids("alerts.deliveries")).not.toContain(id);
    for (const id of [spent, routedNowhere, markedByPreviousRelease])
      expect(await ids("alerts.outbox")).not.toContain(id);
    // The product's history is never pruned.
    expect(await count("alerts.alerts")).toBe(1);
    expect(await count("alerts.occurrences")).toBe(1);
    // A second run (or another replica after this one) finds nothing.
    expect(await pruneNotifications(database.orm, { retentionDays: RETENTION_DAYS })).toEqual({
      skipped: false,
      deliveries: 0,
      outbox: 0,
      idempotencyKeys: 0,
      more: false,
    });
  });

  it("honours the configured horizon", async () => {
    const event = await outboxEvent(OLD);
    const old = await delivery(event, "delivered", { ageDays: OLD });
    expect(await pruneNotifications(database.orm, { retentionDays: OLD + 5 })).toMatchObject({
      deliveries: 0,
      outbox: 0,
    });
    expect(await ids("alerts.deliveries")).toEqual([old]);
    expect(await pruneNotifications(database.orm, { retentionDays: OLD - 5 })).toMatchObject({
      deliveries: 1,
      outbox: 1,
    });
    expect(await ids("alerts.deliveries")).toEqual([]);
  });

  it("deletes in bounded batches, stops at the cap and finishes at the next run", async () => {
    const event = await outboxEvent(OLD);
    for (let i = 0; i < 25; i++) await delivery(event, "delivered", { ageDays: OLD });
    const limits = { retentionDays: RETENTION_DAYS, batchSize: 10, maxBatches: 2 };

    expect(await pruneNotifications(database.orm, limits)).toEqual({
      skipped: false,
      deliveries: 20,
      outbox: 0,
      idempotencyKeys: 0,
      more: true,
    });
    expect(await count("alerts.deliveries")).toBe(5);
    expect(await ids("alerts.outbox")).toEqual([event]);

    expect(await pruneNotifications(database.orm, limits)).toEqual({
      skipped: false,
      deliveries: 5,
      outbox: 1,
      idempotencyKeys: 0,
      more: false,
    });
    expect(await count("alerts.deliveries")).toBe(0);
    expect(await count("alerts.outbox")).toBe(0);
  });

  it("stands aside while another replica holds the retention lock", async () => {
    const event = await outboxEvent(OLD);
    const old = await delivery(event, "failed", { ageDays: OLD });
    const other = await database.db.connect();
    try {
      await other.query("BEGIN");
      await other.query("SELECT pg_advisory_xact_lock(hashtext($1))", [ALERTS_RETENTION_LOCK]);
      expect(await pruneNotifications(database.orm, { retentionDays: RETENTION_DAYS })).toEqual({
        skipped: true,
        deliveries: 0,
        outbox: 0,
        idempotencyKeys: 0,
        more: false,
      });
      expect(await ids("alerts.deliveries")).toEqual([old]);
    } finally {
      await other.query("COMMIT");
      other.release();
    }
    expect(await pruneNotifications(database.orm, { retentionDays: RETENTION_DAYS })).toMatchObject({
      deliveries: 1,
      outbox: 1,
    });
  });

  it("stops between batches once aborted", async () => {
    const event = await outboxEvent(OLD);
    for (let i = 0; i < 5; i++) await delivery(event, "delivered", { ageDays: OLD });
    const abort = new AbortController();
    abort.abort();
    const result = await pruneNotifications(database.orm, {
      retentionDays: RETENTION_DAYS,
      batchSize: 2,
      signal: abort.signal,
    });
    expect(result).toMatchObject({ deliveries: 0, outbox: 0 });
    expect(await count("alerts.deliveries")).toBe(5);
  });

  it("defaults to 30 days, hourly", () => {
    const defaults = loadAlertsConfig({});
    expect(defaults.NOTIFY_RETENTION_DAYS).toBe(30);
    expect(defaults.RETENTION_INTERVAL_MS).toBe(3_600_000);
  });
});
