import { quotaKey, quotaMonth } from "@pulsegate/contract/quota";
import { describe, expect, it } from "vitest";
import type { AlertView } from "./alert-row.ts";
import { type FoldInput, type KeyState, keyOf, newAlertId, planBatch, resolveResults } from "./plan-batch.ts";

const at = new Date("2026-11-23T10:00:00.000Z");
const month = quotaMonth(at);

function input(teamId: string, groupKey: string | null, extra: Partial<FoldInput> = {}): FoldInput {
  return {
    teamId,
    source: "webhook",
    sourceId: "wh_1",
    title: `${teamId} ${groupKey}`,
    description: "",
    severity: "sev2",
    metadataJson: '{"env":"production"}',
    metadata: { env: "production" },
    groupKey,
    reopenWindowSeconds: 3_600,
    alertQuotaMonthly: 0,
    receivedAt: at,
    ...extra,
  };
}

function ids() {
  let n = 0;
  return () => `alert_${++n}`;
}

const resolvedAlert: AlertView = {
  id: "alert_old",
  teamId: "team_a",
  status: "resolved",
  groupKey: "api",
  title: "API down (first)",
  description: "",
  severity: "sev1",
  occurrenceCount: 4,
  source: "webhook",
  sourceId: "wh_1",
  metadata: { first: true },
  firstSeenAt: new Date("2026-11-20T00:00:00.000Z"),
  lastSeenAt: new Date("2026-11-23T09:00:00.000Z"),
  acknowledgedAt: new Date("2026-11-23T09:10:00.000Z"),
  resolvedAt: new Date("2026-11-23T09:30:00.000Z"),
  createdAt: new Date("2026-11-20T00:00:00.000Z"),
};

describe("planBatch", () => {
  it("lets the first trigger of a key create and folds the rest into it, counts in batch order", () => {
    const plan = planBatch(
      [input("team_a", "disk"), input("team_a", "disk"), input("team_a", "disk")],
      new Map(),
      new Map(),
      ids(),
    );
    expect(plan.results).toEqual([
      { outcome: "created", alertId: "alert_1", occurrenceCount: 1 },
      { outcome: "occurrence_added", alertId: "alert_1", occurrenceCount: 2 },
      { outcome: "occurrence_added", alertId: "alert_1", occurrenceCount: 3 },
    ]);
    expect(plan.creates).toHaveLength(1);
    expect(plan.creates[0]).toMatchObject({ id: "alert_1", occurrenceCount: 3 });
    expect(plan.occurrences.map((row) => row.outcome)).toEqual(["created", "occurrence_added", "occurrence_added"]);
    expect(plan.events).toHaveLength(1);
    expect(plan.quota).toEqual([{ teamId: "team_a", month, count: 1 }]);
  });

  it("creates one alert per trigger without a key, and keeps keys of different teams apart", () => {
    const plan = planBatch(
      [input("team_a", null), input("team_a", null), input("team_a", "k"), input("team_b", "k")],
      new Map(),
      new Map(),
      ids(),
    );
    expect(plan.results.map((result) => result.outcome)).toEqual(["created", "created", "created", "created"]);
    expect(new Set(plan.creates.map((alert) => alert.id)).size).toBe(4);
    expect(plan.quota).toEqual([
      { teamId: "team_a", month, count: 3 },
      { teamId: "team_b", month, count: 1 },
    ]);
  });

  it("folds into an open alert found by classify; counts come from the write", () => {
    const states = new Map<string, KeyState>([[keyOf("team_a", "cpu"), { kind: "open", alertId: "alert_open" }]]);
    const plan = planBatch([input("team_a", "cpu"), input("team_a", "cpu")], states, new Map(), ids());
    expect(plan.bumps).toEqual([
      {
        alertId: "alert_open",
        added: 2,
        reopen: false,
        lastSeenAt: at,
        repeatIntervalSeconds: null,
        silencedBy: null,
        episode: null,
      },
    ]);
    expect(plan.events).toEqual([]);
    expect(plan.quota).toEqual([]);
    expect(resolveResults(plan, new Map([["alert_open", 9]]))).toEqual([
      { outcome: "occurrence_added", alertId: "alert_open", occurrenceCount: 8 },
      { outcome: "occurrence_added", alertId: "alert_open", occurrenceCount: 9 },
    ]);
  });

  it("reopens with the first trigger, folds the rest, and writes the event as the reopen leaves the alert", () => {
    const states = new Map<string, KeyState>([[keyOf("team_a", "api"), { kind: "resolved", alert: resolvedAlert }]]);
    const reopening = input("team_a", "api", {
      title: "API down (again)",
      description: "502 from the edge",
      severity: "sev3",
      metadataJson: '{"region":"eu"}',
      metadata: { region: "eu" },
    });
    const plan = planBatch([reopening, input("team_a", "api")], states, new Map(), ids());
    // The reopening trigger's text, severity and metadata, not the folded one's.
    const episode = {
      title: "API down (again)",
      description: "502 from the edge",
      severity: "sev3",
      metadataJson: '{"region":"eu"}',
    };
    expect(plan.bumps).toEqual([
      {
        alertId: "alert_old",
        added: 2,
        reopen: true,
        lastSeenAt: at,
        repeatIntervalSeconds: null,
        silencedBy: null,
        episode,
      },
    ]);
    expect(resolveResults(plan, new Map([["alert_old", 6]]))).toEqual([
      { outcome: "reopened", alertId: "alert_old", occurrenceCount: 5 },
      { outcome: "occurrence_added", alertId: "alert_old", occurrenceCount: 6 },
    ]);
    expect(plan.occurrences.map((row) => row.outcome)).toEqual(["reopened", "occurrence_added"]);
    expect(plan.quota).toEqual([{ teamId: "team_a", month, count: 1 }]);
    const payload = JSON.parse(plan.events[0]?.payload ?? "{}");
    expect(payload).toEqual({
      type: "alert.reopened",
      occurredAt: at.toISOString(),
      alert: {
        ...JSON.parse(JSON.stringify(resolvedAlert)),
        title: "API down (again)",
        description: "502 from the edge",
        severity: "sev3",
        metadata: { region: "eu" },
        status: "open",
        occurrenceCount: 5,
        lastSeenAt: at.toISOString(),
        acknowledgedAt: null,
        resolvedAt: null,
        acknowledgedBy: null,
        resolvedBy: null,
        repeatIntervalSeconds: null,
        nextReminderAt: null,
        remindersSent: 0,
        silencedBy: null,
      },
    });
  });

  it("writes the created event as the first trigger created the alert", () => {
    const plan = planBatch([input("team_a", "disk"), input("team_a", "disk")], new Map(), new Map(), ids());
    expect(JSON.parse(plan.events[0]?.payload ?? "{}")).toEqual({
      type: "alert.created",
      occurredAt: at.toISOString(),
      alert: {
        id: "alert_1",
        teamId: "team_a",
        status: "open",
        groupKey: "disk",
        title: "team_a disk",
        description: "",
        severity: "sev2",
        occurrenceCount: 1,
        source: "webhook",
        sourceId: "wh_1",
        metadata: { env: "production" },
        firstSeenAt: at.toISOString(),
        lastSeenAt: at.toISOString(),
        acknowledgedAt: null,
        resolvedAt: null,
        acknowledgedBy: null,
        resolvedBy: null,
        createdAt: at.toISOString(),
        repeatIntervalSeconds: null,
        nextReminderAt: null,
        remindersSent: 0,
        silencedBy: null,
      },
    });
  });

  it("hands the quota out in batch order; a refused key refuses the rest of its triggers; folds never need it", () => {
    const states = new Map<string, KeyState>([[keyOf("team_a", "open"), { kind: "open", alertId: "alert_open" }]]);
    const usage = new Map([[quotaKey("team_a", month), 3]]);
    const quota = { alertQuotaMonthly: 5 };
    const plan = planBatch(
      [
        input("team_a", "k1", quota),
        input("team_a", null, quota),
        input("team_a", "k2", quota),
        input("team_a", "k2", quota),
        input("team_a", "k1", quota),
        input("team_a", "open", quota),
        input("team_a", null, quota),
      ],
      states,
      usage,
      ids(),
    );
    expect(resolveResults(plan, new Map([["alert_open", 2]])).map((result) => result.outcome)).toEqual([
      "created",
      "created",
      "quota_exhausted",
      "quota_exhausted",
      "occurrence_added",
      "occurrence_added",
      "quota_exhausted",
    ]);
    expect(plan.quota).toEqual([{ teamId: "team_a", month, count: 2 }]);
  });

  it("counts unlimited teams (quota 0) without needing their usage", () => {
    const plan = planBatch([input("team_a", null), input("team_a", null)], new Map(), new Map(), ids());
    expect(plan.quota).toEqual([{ teamId: "team_a", month, count: 2 }]);
  });

  it("refuses to guess a quota whose usage was not read", () => {
    expect(() => planBatch([input("team_a", null, { alertQuotaMonthly: 1 })], new Map(), new Map(), ids())).toThrow();
  });

  it("gives created and reopened alerts their trigger's reminder interval; folds keep the alert's", () => {
    const reminding = { repeatIntervalSeconds: 600 };
    const states = new Map<string, KeyState>([
      [keyOf("team_a", "old"), { kind: "resolved", alert: resolvedAlert }],
      [keyOf("team_a", "open"), { kind: "open", alertId: "alert_open" }],
    ]);
    const plan = planBatch(
      [input("team_a", "new", reminding), input("team_a", "old", reminding), input("team_a", "open", reminding)],
      states,
      new Map(),
      ids(),
    );
    expect(plan.creates.map((alert) => alert.repeatIntervalSeconds)).toEqual([600]);
    expect(plan.bumps.map((bump) => [bump.alertId, bump.reopen, bump.repeatIntervalSeconds])).toEqual([
      ["alert_old", true, 600],
      ["alert_open", false, null],
    ]);
    const created = JSON.parse(plan.events[0]?.payload ?? "{}").alert;
    expect(created).toMatchObject({ repeatIntervalSeconds: 600, remindersSent: 0 });
    expect(Date.parse(created.nextReminderAt) - at.getTime()).toBe(600_000);
  });

  it("writes no event for an alert created or reopened under a silence, and remembers the silence", () => {
    const states = new Map<string, KeyState>([[keyOf("team_a", "old"), { kind: "resolved", alert: resolvedAlert }]]);
    const silenced = { silencedBy: "sil_1" };
    const plan = planBatch(
      [input("team_a", "new", silenced), input("team_a", "old", silenced)],
      states,
      new Map(),
      ids(),
    );
    expect(plan.events).toEqual([]);
    expect(plan.creates.map((alert) => alert.silencedBy)).toEqual(["sil_1"]);
    expect(plan.bumps.map((bump) => bump.silencedBy)).toEqual(["sil_1"]);
    expect(plan.occurrences.map((row) => row.outcome)).toEqual(["created", "reopened"]);
  });
});

describe("newAlertId", () => {
  it("keeps the id's shape and sorts ids by when they were made (indexes take new ones at their right edge)", async () => {
    const first = newAlertId();
    await new Promise((done) => setTimeout(done, 2));
    const second = newAlertId();
    expect(first).toMatch(/^alert_[0-9a-f]{32}$/);
    expect(second).toMatch(/^alert_[0-9a-f]{32}$/);
    expect(first < second).toBe(true);
    // The first 12 hex digits are the milliseconds since the epoch.
    expect(Math.abs(Number.parseInt(second.slice(6, 18), 16) - Date.now())).toBeLessThan(1_000);
  });
});
