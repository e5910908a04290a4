import { alerts, monitors } from "@pulsegate/proto";
import { describe, expect, it } from "vitest";
import { thrownHttpError } from "../../testing/thrown-http-error.ts";
import { pingResponse, toRecordPingItem } from "./ping-record.ts";

const monitor: monitors.Monitor = {
  ...monitors.Monitor.create(),
  id: "mon_1",
  teamId: "team_1",
  pingUrl: "token",
  name: "Nightly backup",
  status: monitors.MonitorStatus.MONITOR_STATUS_IDLE,
  monitoringActive: false,
  intervalSeconds: 300,
  graceSeconds: 60,
  incidentSeverity: alerts.Severity.SEVERITY_SEV2,
  reopenWindowSeconds: 3600,
  lastPingAt: undefined,
  lastPingStatus: monitors.PingStatus.PING_STATUS_UNSPECIFIED,
  lastReason: "",
  createdAt: undefined,
};

describe("toRecordPingItem", () => {
  it("carries the body, the method and both quotas", () => {
    const at = new Date();
    const access = {
      subscriptionExpiresAt: undefined,
      subscriptionActive: true,
      alertQuotaMonthly: 7,
      heartbeatQuotaMonthly: 9,
    };
    expect(
      toRecordPingItem(
        monitor,
        access,
        { status: "down", reason: "disk", group_key: "g", metadata: { group_key: "g" } },
        "GET",
        at,
      ),
    ).toEqual({
      monitorId: "mon_1",
      teamId: "team_1",
      status: monitors.PingStatus.PING_STATUS_DOWN,
      reason: "disk",
      groupKey: "g",
      metadataJson: '{"group_key":"g"}',
      method: "GET",
      receivedAt: at,
      idempotencyKey: "",
      requestFingerprint: "",
      heartbeatQuotaMonthly: 9,
      alertQuotaMonthly: 7,
    });
  });
});

describe("pingResponse", () => {
  it("answers exactly the spec's fields from the recorded monitor", () => {
    const result = {
      outcome: monitors.RecordOutcome.RECORD_OUTCOME_RECORDED,
      monitor: { ...monitor, status: monitors.MonitorStatus.MONITOR_STATUS_DOWN, monitoringActive: true },
      pingId: "p",
      violations: [],
      replayed: false,
    };
    expect(pingResponse(result, monitor, { status: "down" })).toEqual({
      message: "Ping received",
      monitor: { name: "Nightly backup", status: "down", monitoringActive: true },
      pingStatus: "down",
    });
  });

  it("answers a spooled ping without a known monitor from the resolved one, with the ping applied", () => {
    const result = {
      outcome: monitors.RecordOutcome.RECORD_OUTCOME_SPOOLED,
      monitor: undefined,
      pingId: "p",
      violations: [],
      replayed: false,
    };
    expect(pingResponse(result, monitor, { status: "up" })).toEqual({
      message: "Ping received",
      monitor: { name: "Nightly backup", status: "up", monitoringActive: true },
      pingStatus: "up",
    });
  });

  it("maps the refusals", () => {
    const base = { monitor: undefined, pingId: "", violations: [], replayed: false };
    const quota = thrownHttpError(() =>
      pingResponse(
        { ...base, outcome: monitors.RecordOutcome.RECORD_OUTCOME_QUOTA_EXHAUSTED },
        monitor,
        { status: "up" },
        new Date("2025-01-31T23:59:00Z"),
      ),
    );
    expect([quota.status, quota.code, quota.headers["retry-after"]]).toEqual([429, "heartbeat_quota_exhausted", "60"]);
    for (const outcome of [
      monitors.RecordOutcome.RECORD_OUTCOME_PAUSED,
      monitors.RecordOutcome.RECORD_OUTCOME_MONITOR_NOT_FOUND,
    ]) {
      expect(thrownHttpError(() => pingResponse({ ...base, outcome }, monitor, { status: "up" })).status).toBe(404);
    }
    const invalid = thrownHttpError(() =>
      pingResponse(
        {
          ...base,
          outcome: monitors.RecordOutcome.RECORD_OUTCOME_INVALID,
          violations: [{ field: "metadata.k", message: "metadata.k must not contain the NUL character (U+0000)." }],
        },
        monitor,
        { status: "up" },
      ),
    );
    expect([invalid.status, invalid.code, invalid.details?.[0]?.field]).toEqual([400, "invalid_request", "metadata.k"]);
    expect(() => pingResponse(undefined, monitor, { status: "up" })).toThrow(/outcome/);
  });
});
