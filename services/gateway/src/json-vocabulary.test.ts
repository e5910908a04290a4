import {
  ALERT_STATUSES,
  CHANNEL_KINDS,
  DELIVERY_EVENTS,
  PING_STATUSES,
  SEVERITIES,
} from "@pulsegate/contract/vocabulary";
import { alerts, monitors } from "@pulsegate/proto";
import { describe, expect, it } from "vitest";
import {
  alertStatusJson,
  alertStatusToProto,
  channelKindJson,
  channelKindToProto,
  deliveryEventJson,
  deliveryStatusJson,
  monitorStatusJson,
  pingStatusJson,
  pingStatusToProto,
  severityJson,
  severityToProto,
} from "./json-vocabulary.ts";

/** Every value of a generated enum but UNSPECIFIED (0) and UNRECOGNIZED (-1). */
const known = (protoEnum: Record<string, number>) => Object.values(protoEnum).filter((value) => value > 0);

describe("proto to JSON", () => {
  it.each([
    ["severity", alerts.Severity, severityJson],
    ["alert status", alerts.AlertStatus, alertStatusJson],
    ["ping status", monitors.PingStatus, pingStatusJson],
    ["monitor status", monitors.MonitorStatus, monitorStatusJson],
    ["channel kind", alerts.ChannelKind, channelKindJson],
    ["delivery status", alerts.DeliveryStatus, deliveryStatusJson],
    ["delivery event", alerts.DeliveryEvent, deliveryEventJson],
  ] as const)("%s: every proto value has a word; UNSPECIFIED and unknown values are null", (_, protoEnum, toJson) => {
    const words = known(protoEnum).map((value) => toJson(value));
    expect(words.length).toBeGreaterThan(1);
    for (const word of words) expect(typeof word).toBe("string");
    expect(new Set(words).size).toBe(words.length);
    expect(toJson(0)).toBeNull();
    expect(toJson(99)).toBeNull();
  });
});

describe("JSON to proto and back", () => {
  it("round-trips every word the API accepts", () => {
    for (const severity of SEVERITIES) expect(severityJson(severityToProto(severity))).toBe(severity);
    for (const status of ALERT_STATUSES) expect(alertStatusJson(alertStatusToProto(status))).toBe(status);
    for (const status of PING_STATUSES) expect(pingStatusJson(pingStatusToProto(status))).toBe(status);
    for (const kind of CHANNEL_KINDS) expect(channelKindJson(channelKindToProto(kind))).toBe(kind);
  });

  it("sends UNSPECIFIED for an absent severity (the webhook's default) or status (every status)", () => {
    expect(severityToProto(undefined)).toBe(alerts.Severity.SEVERITY_UNSPECIFIED);
    expect(alertStatusToProto(undefined)).toBe(alerts.AlertStatus.ALERT_STATUS_UNSPECIFIED);
  });

  it("keeps the words callers already see", () => {
    expect(SEVERITIES).toEqual(["sev0", "sev1", "sev2", "sev3", "sev4"]);
    expect(ALERT_STATUSES).toEqual(["open", "acknowledged", "resolved"]);
    expect(CHANNEL_KINDS).toEqual(["slack", "webhook", "pagerduty", "opsgenie", "email"]);
    expect(DELIVERY_EVENTS).toEqual([
      "alert.created",
      "alert.reopened",
      "alert.acknowledged",
      "alert.resolved",
      "alert.reminder",
      "channel.disabled",
    ]);
    expect(monitorStatusJson(monitors.MonitorStatus.MONITOR_STATUS_PAUSED)).toBe("paused");
    expect(pingStatusJson(monitors.PingStatus.PING_STATUS_DOWN)).toBe("down");
  });
});
