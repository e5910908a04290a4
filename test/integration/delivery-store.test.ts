// The dispatcher's PostgreSQL side against a real database: expansion is
// idempotent, replicas never claim one delivery together, an alert's events
// go out in order, leases expire, attempts are bounded.
import { createPgPool, type Orm, type PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AlertService } from "../../services/alerts/src/alerts/alert-service.ts";
import { foldTriggers } from "../../services/alerts/src/alerts/fold-triggers.ts";
import { alertsKeyring, openAlertsDatabase } from "../../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { ChannelSealer } from "../../services/alerts/src/notifications/channels/channel-credentials.ts";
import { ChannelService } from "../../services/alerts/src/notifications/channels/channel-service.ts";
import { DeliveryStore } from "../../services/alerts/src/notifications/deliveries/delivery-store.ts";
import { expandOutbox } from "../../services/alerts/src/notifications/deliveries/expand-outbox.ts";
import { PolicyService } from "../../services/alerts/src/notifications/routing/policy-service.ts";
import { recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";

const server = TEST_DATABASE_SERVER;
const databaseName = `pulsegate_it_deliveries_${process.pid}`;
const log = createLogger("test", "silent");
const config = loadAlertsConfig({ DATABASE_URL: `${server}/${databaseName}`, DB_POOL_MAX: "5" });

let orm: Orm;
let pool: PgPool;
let replica: Orm;
let channels: ChannelService;
let store: DeliveryStore;
let team = 0;

beforeAll(async () => {
  await recreateDatabase(databaseName, server);
  orm = await openAlertsDatabase(config, log);
  pool = createPgPool({ url: config.databaseUrl, max: 2 });
  // A second connection pool plays a second dispatcher replica.
  replica = await openAlertsDatabase(config, log);
  channels = new ChannelService(orm, { allowPrivateNetworks: true, sealer: new ChannelSealer(alertsKeyring(config)) });
  store = new DeliveryStore(orm);
});

afterAll(async () => {
  await pool?.end();
  await orm?.close();
  await replica?.close();
});

let teamId = "";
beforeEach(() => {
  teamId = `team_it_${process.pid}_${++team}`;
});

async function trigger(title: string, options: { groupKey?: string; severity?: "sev0" | "sev2" | "sev4" } = {}) {
  const [result] = await foldTriggers(pool, [
    {
      teamId,
      source: "webhook",
      sourceId: "wh_test",
      title,
      description: "",
      severity: options.severity ?? "sev2",
      metadataJson: null,
      metadata: null,
      groupKey: options.groupKey ?? null,
      reopenWindowSeconds: 3_600,
      alertQuotaMonthly: 0,
      receivedAt: new Date(),
    },
  ]);
  if (!result || !("alertId" in result)) throw new Error("not folded");
  return result.alertId;
}

const channel = async (name: string) =>
  (await channels.create(teamId, { kind: "webhook", name, url: `http://127.0.0.1:9/${name}`, enabled: true })).channel;

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("expected a claimed delivery");
  return value;
}

/** Expands until the outbox has nothing left for anyone. */
async function expandAll(): Promise<void> {
  while ((await expandOutbox(orm, { batchSize: 100, maxAttempts: 3, log })) > 0) {}
}

/** Claims for this test's team only (other tests' rows may be due too). */
async function claimMine(from: DeliveryStore, limit = 100, leaseMs = 60_000) {
  return (await from.claim(limit, leaseMs)).filter((delivery) => delivery.teamId === teamId);
}

describe("delivery store", () => {
  it("expands an event into one delivery per routed channel, once, and a fold into none", async () => {
    const a = await channel("a");
    const b = await channel("b");
    const alertId = await trigger("Disk", { groupKey: "disk" });
    await trigger("Disk", { groupKey: "disk" });
    await expandAll();
    await expandAll();
    const deliveries = await store.listForAlert(alertId);
    expect(deliveries.map((delivery) => delivery.channelId).sort()).toEqual([a.id, b.id].sort());
    expect(deliveries.every((delivery) => delivery.status === "pending" && delivery.maxAttempts === 3)).toBe(true);
  });

  it("routes by the policy in force when the event is expanded", async () => {
    const pager = await channel("pager");
    const chat = await channel("chat");
    await new PolicyService(orm, channels).put(teamId, [
      { severities: ["sev0"], channelIds: [pager.id] },
      { severities: ["sev4"], channelIds: [chat.id] },
    ]);
    const critical = await trigger("Down", { severity: "sev0" });
    const minor = await trigger("Meh", { severity: "sev4" });
    const ignored = await trigger("Unrouted", { severity: "sev2" });
    await expandAll();
    expect((await store.listForAlert(critical)).map((delivery) => delivery.channelId)).toEqual([pager.id]);
    expect((await store.listForAlert(minor)).map((delivery) => delivery.channelId)).toEqual([chat.id]);
    expect(await store.listForAlert(ignored)).toEqual([]);
  });

  it("never hands one delivery to two replicas claiming at once", async () => {
    await channel("a");
    await channel("b");
    for (let i = 0; i < 20; i++) await trigger(`Alert ${i}`);
    await expandAll();
    const other = new DeliveryStore(replica);
    const [mine, theirs] = await Promise.all([claimMine(store, 25), claimMine(other, 25)]);
    const more = await Promise.all([claimMine(store), claimMine(other)]);
    const all = [...mine, ...theirs, ...more.flat()].map((delivery) => delivery.id);
    expect(all).toHaveLength(40);
    expect(new Set(all).size).toBe(40);
    // Leased: nobody gets them again while the lease holds.
    expect(await claimMine(store)).toEqual([]);
  });

  it("holds an alert's later event back while an earlier one to the same channel is pending", async () => {
    const a = await channel("a");
    const alertId = await trigger("Ordered", { groupKey: "ordered" });
    await new AlertService(orm).resolve(alertId);
    await expandAll();
    const [created, ...rest] = await claimMine(store);
    expect(created?.eventType).toBe("alert.created");
    expect(rest).toEqual([]);
    // A failure with a retry later keeps the resolved event waiting.
    expect(await store.complete(must(created), { ok: false, statusCode: 500, error: "HTTP 500", retryInMs: 0 })).toBe(
      "pending",
    );
    const [retried, ...none] = await claimMine(store);
    expect(retried?.eventType).toBe("alert.created");
    expect(retried?.attempt).toBe(2);
    expect(none).toEqual([]);
    expect(await store.complete(must(retried), { ok: true, statusCode: 200 })).toBe("delivered");
    const [resolved] = await claimMine(store);
    expect(resolved).toMatchObject({ eventType: "alert.resolved", channelId: a.id, attempt: 1 });
  });

  it("lets a delivery go again once its lease expires, and ignores the stale holder", async () => {
    await channel("a");
    await trigger("Crashed replica");
    await expandAll();
    const [first] = await claimMine(store, 10, 200);
    expect(first?.attempt).toBe(1);
    expect(await claimMine(store, 10, 200)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [second] = await claimMine(new DeliveryStore(replica), 10, 60_000);
    expect(second?.id).toBe(first?.id);
    expect(second?.attempt).toBe(2);
    // The first holder comes back late: its outcome is not recorded.
    expect(await store.complete(must(first), { ok: true, statusCode: 200 })).toBeNull();
    expect(await store.complete(must(second), { ok: true, statusCode: 200 })).toBe("delivered");
  });

  it("fails a delivery for good after max attempts", async () => {
    await channel("a");
    const alertId = await trigger("Always failing");
    await expandAll();
    const statuses: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const [claimed] = await claimMine(store);
      statuses.push(
        await store.complete(must(claimed), { ok: false, statusCode: null, error: "connection refused", retryInMs: 0 }),
      );
    }
    expect(statuses).toEqual(["pending", "pending", "failed"]);
    expect(await claimMine(store)).toEqual([]);
    const [delivery] = await store.listForAlert(alertId);
    expect(delivery).toMatchObject({
      status: "failed",
      attempts: 3,
      lastError: "connection refused",
      nextAttemptAt: null,
    });
  });

  it("cancels what is pending for a channel that is deleted", async () => {
    const a = await channel("a");
    const alertId = await trigger("Orphan");
    await expandAll();
    await channels.delete(a.id);
    expect(await claimMine(store)).toEqual([]);
    const [delivery] = await store.listForAlert(alertId);
    expect(delivery).toMatchObject({ status: "cancelled", lastError: "channel deleted" });
  });
});
