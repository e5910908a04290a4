// Every outbox event carries the trace its delivery continues, whichever path wrote it: a trigger
// batch (the trigger's own traceparent), an admin resolve, a resolve by key and a disabled channel's
// notice (the trace active when it is written), and a reminder pass (a span of its own).
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import type { Orm, PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { trace, traceparentOf } from "@pulsegate/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AlertService } from "../../services/alerts/src/alerts/alert-service.ts";
import { type FoldInput, foldTriggers } from "../../services/alerts/src/alerts/fold-triggers.ts";
import { resolveAlertsByKey } from "../../services/alerts/src/alerts/resolve-by-key.ts";
import { openAlertsDatabase, openTriggerPool } from "../../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { ChannelSchema } from "../../services/alerts/src/notifications/channels/channel.entity.ts";
import { recordChannelHealth } from "../../services/alerts/src/notifications/channels/channel-health.ts";
import { sendDueReminders } from "../../services/alerts/src/reminders/send-reminders.ts";
import { WebhookService } from "../../services/alerts/src/webhooks/webhook-service.ts";
import { recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";

const databaseName = `pulsegate_it_outbox_trace_${process.pid}`;
const log = createLogger("test", "silent");
const config = loadAlertsConfig({ DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`, DB_POOL_MAX: "5" });
const provider = new NodeTracerProvider();
const teamId = `team_outbox_trace_${process.pid}`;
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/;

let orm: Orm;
let pool: PgPool;

beforeAll(async () => {
  provider.register();
  await recreateDatabase(databaseName);
  orm = await openAlertsDatabase(config, log);
  pool = openTriggerPool(config);
});

afterAll(async () => {
  await pool?.end();
  await orm?.close();
  trace.disable();
});

/** Runs `work` in a fresh request span; returns its traceparent. */
function inRequest(work: () => Promise<unknown>): Promise<string> {
  return trace.getTracer("outbox-trace-test").startActiveSpan("request", async (span) => {
    try {
      await work();
      return traceparentOf();
    } finally {
      span.end();
    }
  });
}

function input(groupKey: string, extra: Partial<FoldInput> = {}): FoldInput {
  return {
    teamId,
    source: "monitor",
    sourceId: "mon_trace",
    title: `Trigger ${groupKey}`,
    description: "",
    severity: "sev2",
    metadataJson: null,
    metadata: null,
    groupKey,
    reopenWindowSeconds: 0,
    alertQuotaMonthly: 0,
    receivedAt: new Date(),
    ...extra,
  };
}

async function eventsOf(type: string): Promise<{ alert_id: string | null; traceparent: string | null }[]> {
  const { rows } = await pool.query<{ alert_id: string | null; traceparent: string | null }>(
    "SELECT alert_id, traceparent FROM alerts.outbox WHERE team_id = $1 AND event_type = $2 ORDER BY id",
    [teamId, type],
  );
  return rows;
}

describe("trace context on every outbox event", () => {
  it("writes each path's event with its trace", async () => {
    const tp = `00-${"c".repeat(32)}-${"d".repeat(16)}-01`;
    const [created, byKey, reminded] = await foldTriggers(pool, [
      input("admin-resolve", { traceparent: tp }),
      input("resolve-by-key"),
      input("reminder", { repeatIntervalSeconds: 60 }),
    ]);
    if (created?.outcome !== "created" || byKey?.outcome !== "created" || reminded?.outcome !== "created") {
      throw new Error(`expected three created alerts, got ${[created, byKey, reminded].map((r) => r?.outcome)}`);
    }
    expect(await eventsOf("alert.created")).toEqual([
      { alert_id: created.alertId, traceparent: tp },
      { alert_id: byKey.alertId, traceparent: null },
      { alert_id: reminded.alertId, traceparent: null },
    ]);

    const adminTrace = await inRequest(() => new AlertService(orm).resolve(created.alertId));
    const webhooks = new WebhookService(orm, { cacheMs: 0 });
    const byKeyTrace = await inRequest(() =>
      resolveAlertsByKey(pool, webhooks, [
        { teamId, source: "monitor", sourceId: "mon_trace", groupKey: "resolve-by-key" },
      ]),
    );
    expect(adminTrace).toMatch(TRACEPARENT);
    expect(byKeyTrace).toMatch(TRACEPARENT);
    expect(byKeyTrace).not.toBe(adminTrace);
    expect(await eventsOf("alert.resolved")).toEqual([
      { alert_id: created.alertId, traceparent: adminTrace },
      { alert_id: byKey.alertId, traceparent: byKeyTrace },
    ]);

    // Outside any span: the pass that finds the reminder opens one of its own.
    expect(await sendDueReminders(pool, new Date(Date.now() + 120_000), log)).toEqual({ sent: 1, full: false });
    const [reminder, ...moreReminders] = await eventsOf("alert.reminder");
    expect(moreReminders).toEqual([]);
    expect(reminder?.alert_id).toBe(reminded.alertId);
    expect(reminder?.traceparent).toMatch(TRACEPARENT);

    const em = orm.em.fork();
    const now = new Date();
    em.create(ChannelSchema, {
      id: `ch_outbox_trace_${process.pid}`,
      teamId,
      kind: "webhook",
      name: "gone receiver",
      credentialsSealed: Buffer.from("not opened here"),
      maskedUrl: "https://receiver.example/…",
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
      signatureScheme: "pulsegate",
      signingSecretRotatedAt: null,
      previousSigningSecretValidUntil: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    await em.flush();
    let reason: string | null = null;
    const deliveryTrace = await inRequest(async () => {
      reason = await recordChannelHealth(
        orm,
        `ch_outbox_trace_${process.pid}`,
        { delivered: false, status: "failed", gone: true },
        { disableAfterMs: 86_400_000, minFailures: 5 },
      );
    });
    expect(reason).toBe("the receiver answered 410 Gone");
    expect(deliveryTrace).toMatch(TRACEPARENT);
    expect(await eventsOf("channel.disabled")).toEqual([{ alert_id: null, traceparent: deliveryTrace }]);
  });
});
