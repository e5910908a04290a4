import { alerts, monitors } from "@pulsegate/proto";
import { describe, expect, it } from "vitest";
import { SEVERITIES } from "../severity.ts";
import {
  monitorStatusFromProto,
  monitorStatusToProto,
  pingStatusFromProto,
  pingStatusToProto,
  severityFromProto,
  severityToProto,
} from "./vocabulary-mapping.ts";

/** Every value of a generated enum but UNSPECIFIED (0) and UNRECOGNIZED (-1). */
const known = <P extends number>(protoEnum: Record<string, P>): P[] =>
  Object.values(protoEnum).filter((value) => value > 0);

describe("severity", () => {
  it("names every proto value, and the name maps back to it", () => {
    for (const value of known(alerts.Severity)) {
      const name = severityFromProto(value);
      expect(name, `proto value ${value}`).toBeDefined();
      expect(severityToProto(name as (typeof SEVERITIES)[number])).toBe(value);
    }
  });

  it("round-trips the domain's list, and knows neither UNSPECIFIED nor 99", () => {
    for (const severity of SEVERITIES) expect(severityFromProto(severityToProto(severity))).toBe(severity);
    expect(severityFromProto(alerts.Severity.SEVERITY_UNSPECIFIED)).toBeUndefined();
    expect(severityFromProto(99)).toBeUndefined();
  });
});

describe("monitor status", () => {
  it("names every proto value, and the name maps back to it", () => {
    for (const value of known(monitors.MonitorStatus)) {
      const name = monitorStatusFromProto(value);
      expect(name, `proto value ${value}`).toBeDefined();
      expect(monitorStatusToProto(name as "up")).toBe(value);
    }
    expect(monitorStatusFromProto(monitors.MonitorStatus.MONITOR_STATUS_UNSPECIFIED)).toBeUndefined();
  });
});

describe("ping status", () => {
  it("names every proto value, and the name maps back to it", () => {
    for (const value of known(monitors.PingStatus)) {
      const name = pingStatusFromProto(value);
      expect(name, `proto value ${value}`).toBeDefined();
      expect(pingStatusToProto(name ?? null)).toBe(value);
    }
  });

  it("reads UNSPECIFIED as up (a ping without a status) and an unknown value as nothing", () => {
    expect(pingStatusFromProto(monitors.PingStatus.PING_STATUS_UNSPECIFIED)).toBe("up");
    expect(pingStatusFromProto(99 as monitors.PingStatus)).toBeUndefined();
  });

  it("sends UNSPECIFIED for a monitor never pinged", () => {
    expect(pingStatusToProto(null)).toBe(monitors.PingStatus.PING_STATUS_UNSPECIFIED);
  });
});
