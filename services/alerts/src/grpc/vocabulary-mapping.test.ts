import { alerts } from "@pulsegate/proto";
import { describe, expect, it } from "vitest";
import { ALERT_STATUSES } from "../alerts/alert-row.ts";
import { CHANNEL_KINDS } from "../notifications/channel.ts";
import { SEVERITIES } from "../severity.ts";
import {
  alertStatusFromProto,
  alertStatusToProto,
  channelKindFromProto,
  channelKindToProto,
  deliveryEventFromProto,
  deliveryEventToProto,
  deliveryStatusFromProto,
  deliveryStatusToProto,
  severityFromProto,
  severityToProto,
  sourceFromProto,
  sourceToProto,
} from "./vocabulary-mapping.ts";

/** Every value of a generated enum but UNSPECIFIED (0) and UNRECOGNIZED (-1). */
const known = (protoEnum: Record<string, number>) => Object.values(protoEnum).filter((value) => value > 0);

const mappings = [
  { name: "severity", protoEnum: alerts.Severity, from: severityFromProto, to: severityToProto },
  { name: "alert status", protoEnum: alerts.AlertStatus, from: alertStatusFromProto, to: alertStatusToProto },
  { name: "alert source", protoEnum: alerts.AlertSource, from: sourceFromProto, to: sourceToProto },
  { name: "channel kind", protoEnum: alerts.ChannelKind, from: channelKindFromProto, to: channelKindToProto },
  {
    name: "delivery status",
    protoEnum: alerts.DeliveryStatus,
    from: deliveryStatusFromProto,
    to: deliveryStatusToProto,
  },
  { name: "delivery event", protoEnum: alerts.DeliveryEvent, from: deliveryEventFromProto, to: deliveryEventToProto },
] as const;

describe.each(mappings)("$name", ({ protoEnum, from, to }) => {
  it("names every proto value, and the name maps back to it", () => {
    const values = known(protoEnum);
    expect(values.length).toBeGreaterThan(1);
    for (const value of values) {
      const name = from(value);
      expect(name, `proto value ${value}`).toBeDefined();
      expect((to as (name: string) => number)(name as string)).toBe(value);
    }
  });

  it("answers undefined for UNSPECIFIED and for a value this build does not know", () => {
    expect(from(0)).toBeUndefined();
    expect(from(99)).toBeUndefined();
    expect(from(-1)).toBeUndefined();
  });
});

describe("the domain's lists", () => {
  it("round-trip through the proto enums", () => {
    for (const severity of SEVERITIES) expect(severityFromProto(severityToProto(severity))).toBe(severity);
    for (const status of ALERT_STATUSES) expect(alertStatusFromProto(alertStatusToProto(status))).toBe(status);
    for (const kind of CHANNEL_KINDS) expect(channelKindFromProto(channelKindToProto(kind))).toBe(kind);
  });

  it("keep the words stored in the database", () => {
    expect(severityToProto("sev0")).toBe(alerts.Severity.SEVERITY_SEV0);
    expect(alertStatusToProto("acknowledged")).toBe(alerts.AlertStatus.ALERT_STATUS_ACKNOWLEDGED);
    expect(deliveryEventToProto("alert.reminder")).toBe(alerts.DeliveryEvent.DELIVERY_EVENT_ALERT_REMINDER);
    expect(deliveryEventToProto("channel.disabled")).toBe(alerts.DeliveryEvent.DELIVERY_EVENT_CHANNEL_DISABLED);
  });
});
