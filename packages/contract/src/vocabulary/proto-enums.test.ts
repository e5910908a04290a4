import { alerts, monitors } from "@pulsegate/proto";
import { describe, expect, it } from "vitest";
import {
  alertSourceEnum,
  alertStatusEnum,
  channelKindEnum,
  deliveryEventEnum,
  deliveryStatusEnum,
  type EnumMapping,
  monitorStatusEnum,
  pingStatusEnum,
  severityEnum,
  signatureSchemeEnum,
  webhookSourceEnum,
} from "./proto-enums.ts";
import {
  ALERT_SOURCES,
  ALERT_STATUSES,
  CHANNEL_KINDS,
  DELIVERY_EVENTS,
  DELIVERY_STATUSES,
  isOneOf,
  isSeverity,
  MONITOR_STATUSES,
  PING_STATUSES,
  SEVERITIES,
  SIGNATURE_SCHEMES,
  WEBHOOK_SOURCES,
} from "./words.ts";

/** Every value of a generated enum but UNSPECIFIED (0) and UNRECOGNIZED (-1). */
const known = (protoEnum: Record<string, number>) => Object.values(protoEnum).filter((value) => value > 0);

const vocabularies: [string, readonly string[], Record<string, number>, EnumMapping<string, number>][] = [
  ["severity", SEVERITIES, alerts.Severity, severityEnum],
  ["alert status", ALERT_STATUSES, alerts.AlertStatus, alertStatusEnum],
  ["alert source", ALERT_SOURCES, alerts.AlertSource, alertSourceEnum],
  ["webhook source", WEBHOOK_SOURCES, alerts.WebhookSource, webhookSourceEnum],
  ["monitor status", MONITOR_STATUSES, monitors.MonitorStatus, monitorStatusEnum],
  ["ping status", PING_STATUSES, monitors.PingStatus, pingStatusEnum],
  ["channel kind", CHANNEL_KINDS, alerts.ChannelKind, channelKindEnum],
  ["delivery status", DELIVERY_STATUSES, alerts.DeliveryStatus, deliveryStatusEnum],
  ["delivery event", DELIVERY_EVENTS, alerts.DeliveryEvent, deliveryEventEnum],
  ["signature scheme", SIGNATURE_SCHEMES, alerts.SignatureScheme, signatureSchemeEnum],
];

describe.each(vocabularies)("%s", (_, words, protoEnum, mapping) => {
  it("round-trips every word", () => {
    for (const word of words) expect(mapping.fromProto(mapping.toProto(word))).toBe(word);
  });

  it("gives every proto value but UNSPECIFIED a word, each its own", () => {
    const values = known(protoEnum);
    expect(values).toHaveLength(words.length);
    expect(new Set(values.map((value) => mapping.fromProto(value)))).toEqual(new Set(words));
  });

  it("answers undefined for UNSPECIFIED, UNRECOGNIZED and a value this build does not know", () => {
    expect(mapping.fromProto(0)).toBeUndefined();
    expect(mapping.fromProto(-1)).toBeUndefined();
    expect(mapping.fromProto(99)).toBeUndefined();
  });
});

describe("the words", () => {
  it("are the ones stored in the database and shown in JSON", () => {
    expect(SEVERITIES).toEqual(["sev0", "sev1", "sev2", "sev3", "sev4"]);
    expect(ALERT_STATUSES).toEqual(["open", "acknowledged", "resolved"]);
    expect(DELIVERY_EVENTS).toContain("alert.reminder");
    expect(severityEnum.toProto("sev0")).toBe(alerts.Severity.SEVERITY_SEV0);
    expect(pingStatusEnum.toProto("down")).toBe(monitors.PingStatus.PING_STATUS_DOWN);
  });

  it("are told apart from other text", () => {
    expect(isSeverity("sev2")).toBe(true);
    expect(isSeverity("SEV2")).toBe(false);
    expect(isSeverity(2)).toBe(false);
    expect(isOneOf(CHANNEL_KINDS, "email")).toBe(true);
    expect(isOneOf(CHANNEL_KINDS, "sms")).toBe(false);
  });
});
