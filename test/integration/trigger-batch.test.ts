// Trigger batches against a real PostgreSQL, through the domain functions with
// hand-built batches (the gateway coalesces concurrent requests into such
// batches): one transaction per batch, exact counts and quota under
// concurrency, outcomes per item in order, and a trigger the database refuses
// failing alone. Each case runs with and without the open-key hints, which
// move folds between the first statement and the classify/write steps.
import type { Orm, PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AlertService } from "../../services/alerts/src/alerts/alert-service.ts";
import { type FoldInput, foldTriggers } from "../../services/alerts/src/alerts/fold-triggers.ts";
import { OpenKeys } from "../../services/alerts/src/alerts/open-keys.ts";
import { type TriggerItem, triggerAlerts } from "../../services/alerts/src/alerts/trigger-alerts.ts";
import { openAlertsDatabase, openTriggerPool } from "../../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { WebhookService } from "../../services/alerts/src/webhooks/webhook-service.ts";
import { recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";

const databaseName = `pulsegate_it_triggers_${process.pid}`;
const log = createLogger("test", "silent");
/** Warnings the fold path logs, as written (one JSON line each). */
const warnings: string[] = [];
const capturing = createLogger("test", "warn", {
  write: (line: string) => {
    warnings.push(line);
  },
});
const config = loadAlertsConfig({ DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`, DB_POOL_MAX: "5" });

let orm: Orm;
let pool: PgPool;
let webhooks: WebhookService;
let serial = 0;
let teamId = "";
let otherTeamId = "";

beforeAll(async () => {
  await recreateDatabase(databaseName);
  orm = await openAlertsDatabase(config, log);
  pool = openTriggerPool(loadAlertsConfig({ DATABASE_URL: config.databaseUrl, DB_POOL_MAX: "24" }));
  webhooks = new WebhookService(orm, { cacheMs: 60_000 });
});

afterAll(async () => {
  await pool?.end();
  await orm?.close();
});

beforeEach(() => {
  warnings.length = 0;
  serial += 1;
  teamId = `team_it_${process.pid}_${serial}`;
  otherTeamId = `team_it_${process.pid}_${serial}_other`;
});

function input(team: string, groupKey: string | null, extra: Partial<FoldInput> = {}): FoldInput {
  return {
    teamId: team,
    source: "webhook",
    sourceId: "wh_test",
    title: `Trigger ${groupKey ?? "(no key)"}`,
    description: "",
    severity: "sev2",
    metadataJson: '{"env":"production"}',
    metadata: { env: "production" },
    groupKey,
    reopenWindowSeconds: 3_600,
    alertQuotaMonthly: 0,
    receivedAt: new Date(),
    ...extra,
  };
}

async function query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  return (await pool.query<Row>(text, values)).rows;
}

const usageOf = async (team: string) =>
  (await query<{ used: number }>("SELECT used FROM alerts.alert_quota_usage WHERE team_id = $1", [team]))[0]?.used ?? 0;

/** Until a backend of this database waits for a lock (the statement under test is blocked). */
async function blockedOnLock(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [row] = await query<{ waiting: number }>(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
      [databaseName],
    );
    if ((row?.waiting ?? 0) > 0) return;
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error("nothing blocked on a lock");
}

const hintModes = [
  ["with open-key hints", () => new OpenKeys()],
  ["without hints", () => undefined],
] as const;

describe.each(hintModes)("trigger batches (%s)", (_mode, hints) => {
  it("N concurrent batches of one new key: exactly one created, N-1 folds, counts 1..N without gaps", async () => {
    const openKeys = hints();
    const batches = await Promise.all(
      Array.from({ length: 10 }, () =>
        foldTriggers(
          pool,
          Array.from({ length: 5 }, () => input(teamId, "burst")),
          { openKeys },
        ),
      ),
    );
    const results = batches.flat();
    expect(results.filter((result) => result.outcome === "created")).toHaveLength(1);
    expect(results.filter((result) => result.outcome === "occurrence_added")).toHaveLength(49);
    const alertIds = new Set(results.map((result) => ("alertId" in result ? result.alertId : "")));
    expect(alertIds.size).toBe(1);
    const counts = results.map((result) => ("occurrenceCount" in result ? result.occurrenceCount : 0));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // Within a batch, counts follow batch order.
    for (const batch of batches) {
      const own = batch.map((result) => ("occurrenceCount" in result ? result.occurrenceCount : 0));
      expect(own).toEqual([...own].sort((a, b) => a - b));
    }
    const [alert] = await query<{ occurrence_count: number; occurrences: number }>(
      `SELECT a.occurrence_count, (SELECT count(*)::int FROM alerts.occurrences o WHERE o.alert_id = a.id) AS occurrences
         FROM alerts.alerts a WHERE a.team_id = $1`,
      [teamId],
    );
    expect(alert).toEqual({ occurrence_count: 50, occurrences: 50 });
    expect(await usageOf(teamId)).toBe(1);
  });

  it("quota is exact under concurrency: quota 5, 20 creates in 4 concurrent batches of two teams", async () => {
    const openKeys = hints();
    const batches = await Promise.all(
      Array.from({ length: 4 }, (_, b) =>
        foldTriggers(
          pool,
          Array.from({ length: 5 }, (_, i) => [
            input(teamId, `k-${b}-${i}`, { alertQuotaMonthly: 5 }),
            input(otherTeamId, `k-${b}-${i}`, { alertQuotaMonthly: 0 }),
          ]).flat(),
          { openKeys },
        ),
      ),
    );
    const mine = batches.flatMap((batch) => batch.filter((_, index) => index % 2 === 0));
    const theirs = batches.flatMap((batch) => batch.filter((_, index) => index % 2 === 1));
    expect(mine.filter((result) => result.outcome === "created")).toHaveLength(5);
    expect(mine.filter((result) => result.outcome === "quota_exhausted")).toHaveLength(15);
    expect(theirs.every((result) => result.outcome === "created")).toBe(true);
    expect(await usageOf(teamId)).toBe(5);
    expect(await usageOf(otherTeamId)).toBe(20);
    const [stored] = await query<{ alerts: number; outbox: number }>(
      `SELECT (SELECT count(*)::int FROM alerts.alerts WHERE team_id = $1) AS alerts,
              (SELECT count(*)::int FROM alerts.outbox WHERE team_id = $1) AS outbox`,
      [teamId],
    );
    expect(stored).toEqual({ alerts: 5, outbox: 5 });

    // Folds never hit the quota; a reopen needs it like a create.
    const created = mine.find((result) => result.outcome === "created");
    const createdKey = (
      await query<{ group_key: string }>("SELECT group_key FROM alerts.alerts WHERE id = $1", [
        created && "alertId" in created ? created.alertId : "",
      ])
    )[0]?.group_key as string;
    const [fold, fresh] = await foldTriggers(
      pool,
      [input(teamId, createdKey, { alertQuotaMonthly: 5 }), input(teamId, "fresh", { alertQuotaMonthly: 5 })],
      { openKeys },
    );
    expect(fold).toMatchObject({ outcome: "occurrence_added", occurrenceCount: 2 });
    expect(fresh).toEqual({ outcome: "quota_exhausted" });
    await new AlertService(orm).resolve(created && "alertId" in created ? created.alertId : "");
    const [reopen] = await foldTriggers(pool, [input(teamId, createdKey, { alertQuotaMonthly: 5 })], { openKeys });
    expect(reopen).toEqual({ outcome: "quota_exhausted" });
    const [reopened] = await foldTriggers(pool, [input(teamId, createdKey, { alertQuotaMonthly: 6 })], { openKeys });
    expect(reopened).toMatchObject({ outcome: "reopened", occurrenceCount: 3 });
    expect(await usageOf(teamId)).toBe(6);
  });

  it("reopens within the window only: outside it, or with a window of 0, the trigger creates", async () => {
    const openKeys = hints();
    const [first] = await foldTriggers(pool, [input(teamId, "api")], { openKeys });
    const firstId = first && "alertId" in first ? first.alertId : "";
    await new AlertService(orm).resolve(firstId);
    const [never] = await foldTriggers(pool, [input(teamId, "api", { reopenWindowSeconds: 0 })], { openKeys });
    expect(never).toMatchObject({ outcome: "created", occurrenceCount: 1 });
    const neverId = never && "alertId" in never ? never.alertId : "";
    expect(neverId).not.toBe(firstId);
    await new AlertService(orm).resolve(neverId);
    await query("UPDATE alerts.alerts SET resolved_at = now() - interval '2 hours' WHERE team_id = $1", [teamId]);
    const [late] = await foldTriggers(pool, [input(teamId, "api", { source: "monitor", reopenWindowSeconds: 3_600 })], {
      openKeys,
    });
    expect(late).toMatchObject({ outcome: "created", occurrenceCount: 1 });
    await new AlertService(orm).resolve(late && "alertId" in late ? late.alertId : "");
    // A monitor's own window (the item's) applies to monitor sources.
    const [wide] = await foldTriggers(
      pool,
      [input(teamId, "api", { source: "monitor", reopenWindowSeconds: 86_400 })],
      {
        openKeys,
      },
    );
    expect(wide).toMatchObject({ outcome: "reopened", occurrenceCount: 2 });
  });

  it("a fold whose alert is resolved meanwhile is applied again and reopens it", async () => {
    const openKeys = hints();
    const [first] = await foldTriggers(pool, [input(teamId, "flap")], { openKeys });
    const alertId = first && "alertId" in first ? first.alertId : "";
    const resolver = new pg.Client({ connectionString: config.databaseUrl });
    await resolver.connect();
    try {
      await resolver.query("BEGIN");
      await resolver.query("UPDATE alerts.alerts SET status = 'resolved', resolved_at = now() WHERE id = $1", [
        alertId,
      ]);
      const folding = foldTriggers(pool, [input(teamId, "flap"), input(teamId, "flap")], { openKeys, log: capturing });
      await blockedOnLock();
      await resolver.query("COMMIT");
      expect(await folding).toEqual([
        { outcome: "reopened", alertId, occurrenceCount: 2 },
        { outcome: "occurrence_added", alertId, occurrenceCount: 3 },
      ]);
      // A lost race is tried again as a batch, not one trigger at a time.
      expect(warnings).toEqual([]);
    } finally {
      await resolver.end();
    }
  });

  it("the unique index backs the advisory locks up: a create that loses to an outside writer folds instead", async () => {
    const outside = new pg.Client({ connectionString: config.databaseUrl });
    await outside.connect();
    try {
      await outside.query("BEGIN");
      await outside.query(
        `INSERT INTO alerts.alerts (id, team_id, status, group_key, title, severity, occurrence_count, source, source_id,
                                    first_seen_at, last_seen_at, created_at)
         VALUES ($1, $2, 'open', 'race', 'Outside', 'sev2', 1, 'webhook', 'wh_test', now(), now(), now())`,
        [`alert_outside_${serial}`, teamId],
      );
      const creating = foldTriggers(pool, [input(teamId, "race"), input(otherTeamId, "race")], {
        openKeys: hints(),
        log: capturing,
      });
      await blockedOnLock();
      await outside.query("COMMIT");
      expect(await creating).toEqual([
        { outcome: "occurrence_added", alertId: `alert_outside_${serial}`, occurrenceCount: 2 },
        { outcome: "created", alertId: expect.any(String), occurrenceCount: 1 },
      ]);
      expect(await usageOf(teamId)).toBe(0);
      expect(warnings).toEqual([]);
    } finally {
      await outside.end();
    }
  });

  it("a trigger the database refuses fails alone; the other teams' triggers of its batch are applied", async () => {
    const openKeys = hints();
    await query("ALTER TABLE alerts.occurrences ADD CONSTRAINT it_refused_title CHECK (title <> 'poison')");
    try {
      const results = await foldTriggers(
        pool,
        [
          input(teamId, "k1"),
          input(otherTeamId, null, { title: "poison" }),
          input(teamId, "k1"),
          input(`${teamId}_third`, "k2"),
        ],
        { openKeys, log: capturing },
      );
      expect(results).toEqual([
        { outcome: "created", alertId: expect.any(String), occurrenceCount: 1 },
        { outcome: "invalid", violations: [{ field: "", message: expect.stringContaining("23514") }] },
        { outcome: "occurrence_added", alertId: expect.any(String), occurrenceCount: 2 },
        { outcome: "created", alertId: expect.any(String), occurrenceCount: 1 },
      ]);
      expect(await query("SELECT id FROM alerts.alerts WHERE team_id = $1", [otherTeamId])).toEqual([]);
      expect(await usageOf(otherTeamId)).toBe(0);
      expect(await usageOf(teamId)).toBe(1);
      // Said, with the error's code and never the refused content.
      expect(warnings.map((line) => JSON.parse(line).msg)).toEqual([
        "trigger batch failed: applying its triggers one by one",
        "trigger refused by the database",
      ]);
      expect(warnings.join("\n")).toContain("23514");
      expect(warnings.join("\n")).not.toContain("poison");
    } finally {
      await query("ALTER TABLE alerts.occurrences DROP CONSTRAINT it_refused_title");
    }
  });
});

describe("trigger batches through triggerAlerts", () => {
  // Names are unique within a team: each webhook gets its own.
  let made = 0;
  async function webhookFor(team: string, settings: Parameters<WebhookService["create"]>[1] = {}) {
    return (await webhooks.create(team, { name: `CI ${++made}`, ...settings })).webhook;
  }

  function item(team: string, sourceId: string, body: Partial<TriggerItem> = {}): TriggerItem {
    return {
      teamId: team,
      source: "webhook",
      sourceId,
      title: "Trigger",
      description: "",
      severity: undefined,
      metadataJson: '{"env":"production"}',
      groupKey: null,
      alertQuotaMonthly: 0,
      reopenWindowSeconds: 0,
      ...body,
    };
  }

  it("gives a mixed batch of two teams the right outcome per item, in order", async () => {
    const openKeys = new OpenKeys();
    const hook = await webhookFor(teamId, {
      defaultSeverity: "sev3",
      filterRules: [{ field: "metadata.env", op: "==", value: "production" }],
    });
    const disabled = await webhookFor(teamId, { enabled: false });
    const theirs = await webhookFor(otherTeamId);
    const [open, resolved] = await triggerAlerts(
      pool,
      webhooks,
      [item(teamId, hook.id, { groupKey: "open" }), item(teamId, hook.id, { groupKey: "api" })],
      { openKeys },
    );
    const resolvedId = resolved && "alertId" in resolved ? resolved.alertId : "";
    await new AlertService(orm).resolve(resolvedId);

    const results = await triggerAlerts(
      pool,
      webhooks,
      [
        item(teamId, hook.id, { groupKey: "disk", title: "Disk full" }),
        item(teamId, hook.id, { groupKey: "open" }),
        item(teamId, hook.id, { groupKey: "api" }),
        item(teamId, hook.id, { groupKey: "noise", metadataJson: '{"env":"staging"}' }),
        item(teamId, hook.id, { groupKey: "bad", title: "nul \u0000 inside" }),
        item(teamId, disabled.id, { groupKey: "disk" }),
        item(otherTeamId, theirs.id, { groupKey: "disk", severity: "sev0" }),
        item(teamId, hook.id, { groupKey: "disk" }),
        item(teamId, hook.id),
        item(teamId, "mon_1", { source: "monitor", groupKey: "monitor:mon_1", reopenWindowSeconds: 600 }),
        item(teamId, theirs.id, { groupKey: "disk" }),
      ],
      { openKeys },
    );
    const diskId = "alertId" in (results[0] ?? {}) ? (results[0] as { alertId: string }).alertId : "";
    expect(results).toEqual([
      { outcome: "created", alertId: diskId, occurrenceCount: 1 },
      { outcome: "occurrence_added", alertId: open && "alertId" in open ? open.alertId : "", occurrenceCount: 2 },
      { outcome: "reopened", alertId: resolvedId, occurrenceCount: 2 },
      { outcome: "filtered", reason: 'metadata.env == "production"' },
      { outcome: "invalid", violations: [expect.objectContaining({ field: "title" })] },
      { outcome: "source_not_found" },
      { outcome: "created", alertId: expect.any(String), occurrenceCount: 1 },
      { outcome: "occurrence_added", alertId: diskId, occurrenceCount: 2 },
      { outcome: "created", alertId: expect.any(String), occurrenceCount: 1 },
      { outcome: "created", alertId: expect.any(String), occurrenceCount: 1 },
      { outcome: "source_not_found" },
    ]);
    const [disk] = await query<{ severity: string; title: string; occurrence_count: number }>(
      "SELECT severity, title, occurrence_count FROM alerts.alerts WHERE id = $1",
      [diskId],
    );
    expect(disk).toEqual({ severity: "sev3", title: "Disk full", occurrence_count: 2 });
    const events = await query<{ event_type: string; alert_id: string }>(
      "SELECT event_type, alert_id FROM alerts.outbox WHERE team_id = $1 ORDER BY id",
      [teamId],
    );
    expect(events.map((event) => event.event_type)).toEqual([
      "alert.created",
      "alert.created",
      "alert.resolved",
      "alert.created",
      "alert.reopened",
      "alert.created",
      "alert.created",
    ]);
    // Two creates in the first batch, then disk, the reopen, the keyless one and the monitor's.
    expect(await usageOf(teamId)).toBe(6);
    expect(await usageOf(otherTeamId)).toBe(1);
    const occurrences = await query<{ outcome: string }>(
      "SELECT outcome FROM alerts.occurrences WHERE alert_id = $1 ORDER BY id",
      [diskId],
    );
    expect(occurrences.map((row) => row.outcome)).toEqual(["created", "occurrence_added"]);
  });

  it("writes the created and reopened events exactly as the alert stands after them", async () => {
    const hook = await webhookFor(teamId, { repeatIntervalSeconds: 300 });
    const alerts = new AlertService(orm);
    const [created] = await triggerAlerts(pool, webhooks, [
      item(teamId, hook.id, { groupKey: "shape", metadataJson: '{"b":1,"a":{"c":[1,2]}}' }),
    ]);
    const alertId = created && "alertId" in created ? created.alertId : "";
    const afterCreate = await alerts.get(alertId);
    // Acknowledged and resolved: the reopen (fold-rule.ts) forgets both and reminds afresh.
    const acknowledged = await alerts.acknowledge(alertId);
    await alerts.resolve(alertId);
    const [reopened] = await triggerAlerts(pool, webhooks, [
      item(teamId, hook.id, {
        groupKey: "shape",
        title: "Trigger, second episode",
        description: "now with a description",
        severity: "sev0",
        metadataJson: '{"env":"staging","a":{"c":[3]}}',
      }),
    ]);
    expect(reopened).toMatchObject({ outcome: "reopened" });
    const afterReopen = await alerts.get(alertId);
    expect(afterReopen).toMatchObject({
      status: "open",
      acknowledgedAt: null,
      resolvedAt: null,
      repeatIntervalSeconds: 300,
      nextReminderAt: new Date(afterReopen.lastSeenAt.getTime() + 300_000),
      remindersSent: 0,
    });
    // A reopen is a new episode: the alert says what its reopening trigger says.
    expect(afterReopen).toMatchObject({
      title: "Trigger, second episode",
      description: "now with a description",
      severity: "sev0",
      metadata: { env: "staging", a: { c: [3] } },
    });
    const events = await query<{ event_type: string; payload: unknown; created_at: Date }>(
      "SELECT event_type, payload, created_at FROM alerts.outbox WHERE alert_id = $1 ORDER BY id",
      [alertId],
    );
    expect(events.map((event) => event.event_type)).toEqual([
      "alert.created",
      "alert.acknowledged",
      "alert.resolved",
      "alert.reopened",
    ]);
    expect(events[0]?.payload).toEqual({
      type: "alert.created",
      occurredAt: afterCreate.createdAt.toISOString(),
      alert: JSON.parse(JSON.stringify(afterCreate)),
    });
    expect(events[1]?.payload).toEqual({
      type: "alert.acknowledged",
      occurredAt: (acknowledged.acknowledgedAt as Date).toISOString(),
      alert: JSON.parse(JSON.stringify(acknowledged)),
    });
    expect(events[3]?.payload).toEqual({
      type: "alert.reopened",
      occurredAt: afterReopen.lastSeenAt.toISOString(),
      alert: JSON.parse(JSON.stringify(afterReopen)),
    });
  });

  it("refuses a webhook disabled through this process at once, and one disabled elsewhere within the TTL", async () => {
    let now = 1_000;
    const here = new WebhookService(orm, { cacheMs: 5_000, cacheNow: () => now });
    const elsewhere = new WebhookService(orm, { cacheMs: 5_000 });
    const { webhook: hook } = await here.create(teamId, { name: "CI" });
    const once = async () => (await triggerAlerts(pool, here, [item(teamId, hook.id)]))[0]?.outcome;
    expect(await once()).toBe("created");
    await elsewhere.update(hook.id, { enabled: false });
    now = 6_000;
    expect(await once()).toBe("created");
    now = 6_001;
    expect(await once()).toBe("source_not_found");
    await here.update(hook.id, { enabled: true });
    expect(await once()).toBe("created");
    await here.update(hook.id, { enabled: false });
    expect(await once()).toBe("source_not_found");
  });
});

describe("trace context on the outbox", () => {
  it("keeps each created or reopened alert's trigger traceparent on its outbox row, none for folds", async () => {
    const tp = (n: number) => `00-${String(n).padStart(32, "a")}-${String(n).padStart(16, "b")}-01`;
    const alertService = new AlertService(orm);
    const [first] = await foldTriggers(pool, [input(teamId, "reopen-me", { traceparent: tp(1) })]);
    if (first?.outcome !== "created") throw new Error(`expected created, got ${first?.outcome}`);
    await alertService.resolve(first.alertId);
    // One batch: a reopen, a fold into it, a create with a traceparent and one without.
    const results = await foldTriggers(pool, [
      input(teamId, "reopen-me", { traceparent: tp(2) }),
      input(teamId, "reopen-me", { traceparent: tp(3) }),
      input(teamId, "new-key", { traceparent: tp(4) }),
      input(teamId, null),
    ]);
    expect(results.map((result) => result.outcome)).toEqual(["reopened", "occurrence_added", "created", "created"]);
    const rows = await query<{ event_type: string; traceparent: string | null; group_key: string | null }>(
      `SELECT o.event_type, o.traceparent, a.group_key FROM alerts.outbox o JOIN alerts.alerts a ON a.id = o.alert_id
        WHERE o.team_id = $1 ORDER BY o.id`,
      [teamId],
    );
    expect(rows).toEqual([
      { event_type: "alert.created", traceparent: tp(1), group_key: "reopen-me" },
      // Resolved through the admin path outside any span: no trace to continue.
      { event_type: "alert.resolved", traceparent: null, group_key: "reopen-me" },
      { event_type: "alert.reopened", traceparent: tp(2), group_key: "reopen-me" },
      { event_type: "alert.created", traceparent: tp(4), group_key: "new-key" },
      { event_type: "alert.created", traceparent: null, group_key: null },
    ]);
  });
});
