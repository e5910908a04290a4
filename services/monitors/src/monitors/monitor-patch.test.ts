import { describe, expect, it } from "vitest";
import { dueAfterChange, patchedSettings } from "./monitor-patch.ts";
import type { MonitorView } from "./monitor-row.ts";

const at = (iso: string) => new Date(iso);

const monitor = (overrides: Partial<MonitorView> = {}): MonitorView => ({
  id: "mon_1",
  teamId: "team_1",
  pingUrl: "p",
  name: "Nightly backup",
  status: "up",
  monitoringActive: true,
  intervalSeconds: 3600,
  graceSeconds: 60,
  severity: "sev2",
  reopenWindowSeconds: 3600,
  lastPingAt: at("2026-03-01T10:00:00Z"),
  lastPingStatus: "up",
  lastReason: null,
  nextDueAt: at("2026-03-01T11:01:00Z"),
  incidentOpen: false,
  openAlertIds: [],
  alertQuotaMonthly: 0,
  schedule: null,
  maxDurationSeconds: null,
  runStartedAt: null,
  lastDurationMs: null,
  badgeToken: "b",
  repeatIntervalSeconds: null,
  requireTimestamp: false,
  signatureScheme: "pulsegate",
  createdAt: at("2026-01-01T00:00:00Z"),
  ...overrides,
});

const scheduled = (expression = "0 3 * * *", timezone = "Europe/Berlin") =>
  monitor({ schedule: { expression, timezone } });

describe("patchedSettings", () => {
  it("changes what the patch gives and keeps the rest", () => {
    const { settings, errors } = patchedSettings(monitor(), { name: " Backups ", graceSeconds: 300, severity: "sev1" });
    expect(errors).toEqual([]);
    expect(settings).toMatchObject({
      name: "Backups",
      intervalSeconds: 3600,
      graceSeconds: 300,
      severity: "sev1",
      reopenWindowSeconds: 3600,
      schedule: null,
      maxDurationSeconds: null,
      repeatIntervalSeconds: null,
      requireTimestamp: false,
      signatureScheme: "pulsegate",
    });
  });

  it("puts an interval monitor on a schedule (UTC unless a zone is given), keeping its interval for later", () => {
    expect(patchedSettings(monitor(), { schedule: "15 3 * * *" }).settings).toMatchObject({
      schedule: { expression: "15 3 * * *", timezone: "UTC" },
      intervalSeconds: 3600,
    });
    expect(patchedSettings(monitor(), { schedule: "15 3 * * *", timezone: "Asia/Tokyo" }).settings.schedule).toEqual({
      expression: "15 3 * * *",
      timezone: "Asia/Tokyo",
    });
  });

  it("makes a scheduled monitor an interval one with an interval or schedule '' (its old interval then)", () => {
    expect(patchedSettings(scheduled(), { intervalSeconds: 600 }).settings).toMatchObject({
      schedule: null,
      intervalSeconds: 600,
    });
    expect(patchedSettings(scheduled(), { schedule: "" }).settings).toMatchObject({
      schedule: null,
      intervalSeconds: 3600,
    });
  });

  it("keeps a schedule when only its zone changes; '' is UTC", () => {
    expect(patchedSettings(scheduled(), { timezone: "America/New_York" }).settings.schedule).toEqual({
      expression: "0 3 * * *",
      timezone: "America/New_York",
    });
    expect(patchedSettings(scheduled(), { timezone: "" }).settings.schedule).toEqual({
      expression: "0 3 * * *",
      timezone: "UTC",
    });
  });

  it("refuses what create refuses: an interval with a schedule, a zone without one, bounds, the name rule", () => {
    const fields = (patch: Parameters<typeof patchedSettings>[1], current = monitor()) =>
      patchedSettings(current, patch).errors.map((problem) => problem.field);
    expect(fields({ schedule: "0 3 * * *", intervalSeconds: 60 })).toEqual(["intervalSeconds"]);
    expect(fields({ timezone: "Europe/Berlin" })).toEqual(["timezone"]);
    expect(fields({ schedule: "", timezone: "Europe/Berlin" }, scheduled())).toEqual(["timezone"]);
    expect(fields({ schedule: "not cron" })).toEqual(["schedule"]);
    expect(fields({ graceSeconds: -1 })).toEqual(["graceSeconds"]);
    expect(fields({ repeatIntervalSeconds: 59 })).toEqual(["repeatIntervalSeconds"]);
    expect(fields({ name: "   " })).toEqual(["name"]);
  });

  it("holds only what the patch touches to today's rules: a name stored before a rule does not block other changes", () => {
    expect(patchedSettings(monitor({ name: "bell\u0007" }), { graceSeconds: 10 }).errors).toEqual([]);
  });

  it("takes 0 as none for the maximum duration and reminders", () => {
    const current = monitor({ maxDurationSeconds: 600, repeatIntervalSeconds: 3600 });
    expect(patchedSettings(current, { maxDurationSeconds: 0, repeatIntervalSeconds: 0 }).settings).toMatchObject({
      maxDurationSeconds: null,
      repeatIntervalSeconds: null,
    });
  });
});

describe("dueAfterChange", () => {
  it("works an up monitor's due time out again from its last ping", () => {
    const current = monitor();
    const { settings } = patchedSettings(current, { intervalSeconds: 600, graceSeconds: 30 });
    expect(dueAfterChange(current, settings)).toEqual(at("2026-03-01T10:10:30Z"));
  });

  it("for a schedule: its next run after the last ping, plus grace", () => {
    const current = monitor();
    const { settings } = patchedSettings(current, { schedule: "30 10 * * *", graceSeconds: 120 });
    expect(dueAfterChange(current, settings)).toEqual(at("2026-03-01T10:32:00Z"));
  });

  it("for an open run: its start plus the shorter of grace and maximum duration", () => {
    const current = monitor({ runStartedAt: at("2026-03-01T10:05:00Z"), nextDueAt: at("2026-03-01T10:06:00Z") });
    const { settings } = patchedSettings(current, { graceSeconds: 900, maxDurationSeconds: 300 });
    expect(dueAfterChange(current, settings)).toEqual(at("2026-03-01T10:10:00Z"));
  });

  it("leaves idle, down and paused monitors without one", () => {
    for (const status of ["idle", "down", "paused"] as const) {
      const current = monitor({ status, nextDueAt: null });
      expect(dueAfterChange(current, patchedSettings(current, { intervalSeconds: 60 }).settings)).toBeNull();
    }
  });
});
