import { monitors } from "@pulsegate/proto";
import { describe, expect, it } from "vitest";
import { pingStatusFromProto, pingStatusToProto } from "./proto-mapping.ts";

describe("ping status at the monitors edge", () => {
  it("reads UNSPECIFIED as up: a ping without a status reports up", () => {
    expect(pingStatusFromProto(monitors.PingStatus.PING_STATUS_UNSPECIFIED)).toBe("up");
    expect(pingStatusFromProto(monitors.PingStatus.PING_STATUS_START)).toBe("start");
  });

  it("refuses a value this build does not know", () => {
    expect(pingStatusFromProto(99 as monitors.PingStatus)).toBeUndefined();
  });

  it("sends UNSPECIFIED for a monitor never pinged", () => {
    expect(pingStatusToProto(null)).toBe(monitors.PingStatus.PING_STATUS_UNSPECIFIED);
    expect(pingStatusToProto("down")).toBe(monitors.PingStatus.PING_STATUS_DOWN);
  });
});
