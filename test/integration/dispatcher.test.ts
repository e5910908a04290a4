// The notification dispatcher as alerts runs it, against a real database and a real HTTP receiver
// on 127.0.0.1: a pass expands an outbox row (written by a fold) into a delivery and sends it once;
// a receiver that fails gets the attempt again after the backoff; stop waits for an attempt under way.
import { createHmac } from "node:crypto";
import { createPgPool, type Orm, type PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { foldTriggers } from "../../services/alerts/src/alerts/fold-triggers.ts";
import { alertsKeyring, openAlertsDatabase } from "../../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { ChannelSealer } from "../../services/alerts/src/notifications/channels/channel-credentials.ts";
import { ChannelService } from "../../services/alerts/src/notifications/channels/channel-service.ts";
import type { DeliveryView } from "../../services/alerts/src/notifications/deliveries/delivery.ts";
import { DeliveryStore } from "../../services/alerts/src/notifications/deliveries/delivery-store.ts";
import { DELIVERY_HEADER, Dispatcher } from "../../services/alerts/src/notifications/deliveries/dispatcher.ts";
import { createHttpSender } from "../../services/alerts/src/notifications/deliveries/send-http.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { eventually } from "../support/eventually.ts";
import { type Behaviour, receiversClosedAfterEach } from "../support/receiver.ts";

const databaseName = `pulsegate_it_dispatcher_${process.pid}`;
const log = createLogger("test", "silent");
const config = loadAlertsConfig({ DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`, DB_POOL_MAX: "5" });
/** The team's secret, as auth's Sign would use it (the dispatcher is given Sign as a function). */
const TEAM_SECRET = "c".repeat(64);
const POLL_MS = 50;
const BACKOFF = { base: 600, max: 600 };
const ATTEMPT_TIMEOUT_MS = 800;

let orm: Orm;
let pool: PgPool;
let channels: ChannelService;
let store: DeliveryStore;
const startReceiver = receiversClosedAfterEach();
const running: Dispatcher[] = [];
let team = 0;

beforeAll(async () => {
  await recreateDatabase(databaseName);
  orm = await openAlertsDatabase(config, log);
  pool = createPgPool({ url: config.databaseUrl, max: 2 });
  channels = new ChannelService(orm, { allowPrivateNetworks: true, sealer: new ChannelSealer(alertsKeyring(config)) });
  store = new DeliveryStore(orm);
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((dispatcher) => dispatcher.stop()));
});

afterAll(async () => {
  await pool?.end();
  await orm?.close();
  await dropDatabase(databaseName);
});

function startDispatcher(): Dispatcher {
  const dispatcher = new Dispatcher({
    orm,
    log,
    sender: createHttpSender({ allowPrivateNetworks: true, timeoutMs: ATTEMPT_TIMEOUT_MS }),
    sign: async (_teamId, payload) => createHmac("sha256", TEAM_SECRET).update(payload).digest("hex"),
    sealer: new ChannelSealer(alertsKeyring(config)),
    health: { disableAfterMs: 86_400_000, minFailures: 5 },
    maxAttempts: 3,
    attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
    pollMs: POLL_MS,
    backoff: BACKOFF,
    concurrency: 4,
  });
  running.push(dispatcher);
  dispatcher.start();
  return dispatcher;
}

/** A team of its own with one webhook channel to `receiverUrl`, and an alert created for it (its outbox row). */
async function alertNotifying(receiverUrl: string): Promise<{ alertId: string; channelId: string }> {
  const teamId = `team_it_dispatch_${process.pid}_${++team}`;
  const { channel } = await channels.create(teamId, { kind: "webhook", name: "hook", url: receiverUrl, enabled: true });
  const [result] = await foldTriggers(pool, [
    {
      teamId,
      source: "webhook",
      sourceId: "wh_dispatch",
      title: "Disk full",
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
  if (!result || !("alertId" in result)) throw new Error("the trigger did not create an alert");
  return { alertId: result.alertId, channelId: channel.id };
}

/** The alert's one delivery once `done` holds for it. */
async function deliveryOf(alertId: string, done: (delivery: DeliveryView) => boolean, what: string) {
  return eventually(
    async () => {
      const deliveries = await store.listForAlert(alertId);
      expect(deliveries).toHaveLength(1);
      const [delivery] = deliveries;
      return delivery && done(delivery) ? delivery : undefined;
    },
    { what, timeoutMs: 10_000, intervalMs: 25 },
  );
}

/** When each request arrived, for a receiver answering as `behaviour`. */
function timed(behaviour: Behaviour): { behaviour: Behaviour; arrivals: number[] } {
  const arrivals: number[] = [];
  return {
    arrivals,
    behaviour: (request, index) => {
      arrivals.push(Date.now());
      return behaviour(request, index);
    },
  };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe("notification dispatcher", () => {
  it("expands an outbox row into one delivery and sends it once, signed", async () => {
    const receiver = await startReceiver(() => 200);
    const { alertId, channelId } = await alertNotifying(receiver.url("/hook"));
    startDispatcher();

    const delivered = await deliveryOf(alertId, (delivery) => delivery.status === "delivered", "a delivered delivery");
    expect(delivered).toMatchObject({
      channelId,
      eventType: "alert.created",
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    // Further passes (every POLL_MS) find nothing more to send.
    await sleep(10 * POLL_MS);
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request?.path).toBe("/hook");
    expect(request?.headers[DELIVERY_HEADER]).toBe(delivered.id);
    expect(request?.headers["x-pulsegate-event"]).toBe("alert.created");
    expect(request?.headers["x-pulsegate-event-id"]).toBe(delivered.eventId);
    expect(request?.headers["x-pulsegate-attempt"]).toBe("1");
    expect(request?.headers["x-webhook-signature"]).toBe(
      createHmac("sha256", TEAM_SECRET)
        .update(request?.raw ?? Buffer.alloc(0))
        .digest("hex"),
    );
    expect(request?.json).toMatchObject({ id: delivered.eventId, type: "alert.created" });
  });

  it("attempts again after the backoff when the receiver fails, and stops once it is delivered", async () => {
    const { behaviour, arrivals } = timed((_request, index) => (index === 0 ? 503 : 200));
    const receiver = await startReceiver(behaviour);
    const { alertId } = await alertNotifying(receiver.url("/flaky"));
    startDispatcher();

    const delivered = await deliveryOf(alertId, (delivery) => delivery.status === "delivered", "a delivered delivery");
    expect(delivered).toMatchObject({ attempts: 2, lastStatusCode: 200, lastError: null });
    await sleep(10 * POLL_MS);
    expect(receiver.requests.map((request) => request.headers["x-pulsegate-attempt"])).toEqual(["1", "2"]);
    expect(receiver.requests.map((request) => request.headers[DELIVERY_HEADER])).toEqual([delivered.id, delivered.id]);
    // Equal jitter: at least half the step (base 600 ms after one failure), at most the step and a few passes.
    const [first = 0, second = 0] = arrivals;
    expect(second - first).toBeGreaterThanOrEqual(BACKOFF.base / 2);
    expect(second - first).toBeLessThan(BACKOFF.base + 20 * POLL_MS);
  });

  it("stop waits for an attempt under way and records its outcome", async () => {
    const receiver = await startReceiver(() => "hang");
    const { alertId } = await alertNotifying(receiver.url("/slow"));
    const dispatcher = startDispatcher();
    await receiver.waitForCount(1, 10_000);

    const stopping = Date.now();
    await dispatcher.stop();
    // The attempt ran to its timeout (the receiver never answers) before stop returned.
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS / 2);
    const [delivery] = await store.listForAlert(alertId);
    expect(delivery).toMatchObject({
      status: "pending",
      attempts: 1,
      lastStatusCode: null,
      lastError: `timed out after ${ATTEMPT_TIMEOUT_MS} ms`,
    });
    await sleep(BACKOFF.max + 5 * POLL_MS);
    expect(receiver.requests).toHaveLength(1);
  });
});
