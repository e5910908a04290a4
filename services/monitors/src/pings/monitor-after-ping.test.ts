import { describe, expect, it } from "vitest";
import type { MonitorView } from "../monitors/monitor-row.ts";
import { monitorAfterPing } from "./monitor-after-ping.ts";
import type { PingItem } from "./ping-item.ts";
import { pingTransition } from "./ping-transition.ts";

const at = (seconds: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, seconds));

const monitor: MonitorView = {
  id: "m1",
  teamId: "t1",
  pingUrl: "p1",
  name: "backup",
  status: "up",
  monitoringActive: false,
  intervalSeconds: 60,
  graceSeconds: 10,
  severity: "sev2",
  reopenWindowSeconds: 0,
  lastPingAt: at(0),
  lastPingStatus: "up",
  lastReason: null,
  nextDueAt: at(70),
  incidentOpen: false,
  openAlertIds: [],
  alertQuotaMonthly: 10,
  schedule: null,
  maxDurationSeconds: null,
  runStartedAt: null,
  lastDurationMs: 1234,
  badgeToken: "b1",
  repeatIntervalSeconds: null,
  requireTimestamp: false,
  signatureScheme: "pulsegate",
  createdAt: at(0),
};

const ping = (status: PingItem["status"], seconds: number): PingItem => ({
  pingId: "k1",
  monitorId: "m1",
  teamId: "t1",
  status,
  reason: status === "down" ? "disk full" : null,
  groupKey: null,
  metadataJson: null,
  method: "POST",
  receivedAt: at(seconds),
  heartbeatQuotaMonthly: 0,
  alertQuotaMonthly: 99,
});

function moved(from: MonitorView, item: PingItem, alertQuotaMonthly: number): MonitorView {
  const transition = pingTransition(from, item);
  if (!transition.apply) throw new Error("the ping was expected to apply");
  return monitorAfterPing(from, item, transition, alertQuotaMonthly);
}

describe("monitorAfterPing", () => {
  it("takes the transition's state and the ping's time and status, and keeps the rest of the monitor", () => {
    const item = ping("down", 30);
    const after = moved(monitor, item, 99);
    expect(after).toEqual({
      ...monitor,
      status: "down",
      monitoringActive: true,
      lastPingAt: at(30),
      lastPingStatus: "down",
      lastReason: "disk full",
      nextDueAt: null,
      incidentOpen: true,
      alertQuotaMonthly: 99,
    });
    expect(monitor.status).toBe("up");
  });

  it("closes the open incident on the ping that resolves it, and keeps the given alert quota", () => {
    const down = moved(monitor, ping("down", 30), 10);
    const up = moved(down, ping("up", 40), 10);
    expect(up).toMatchObject({ status: "up", incidentOpen: false, lastReason: null, alertQuotaMonthly: 10 });
  });

  it("keeps the last run's duration unless the ping closed a run", () => {
    const started = moved(monitor, ping("start", 30), 10);
    expect(started).toMatchObject({ runStartedAt: at(30), lastDurationMs: 1234 });
    expect(moved(started, ping("up", 35), 10)).toMatchObject({ runStartedAt: null, lastDurationMs: 5000 });
  });
});
