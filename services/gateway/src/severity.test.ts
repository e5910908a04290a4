import { alerts } from "@pulsegate/proto";
import { describe, expect, it } from "vitest";
import { severityFromProto, severityToProto } from "./severity.ts";
import { SEVERITIES } from "./validation/index.ts";

describe("severity mapping", () => {
  it("round-trips every JSON severity", () => {
    for (const severity of SEVERITIES) expect(severityFromProto(severityToProto(severity))).toBe(severity);
  });

  it("maps sev2 to the proto enum and absent to UNSPECIFIED", () => {
    expect(severityToProto("sev2")).toBe(alerts.Severity.SEVERITY_SEV2);
    expect(severityToProto(undefined)).toBe(alerts.Severity.SEVERITY_UNSPECIFIED);
  });

  it("answers null for UNSPECIFIED and unknown values", () => {
    expect(severityFromProto(alerts.Severity.SEVERITY_UNSPECIFIED)).toBeNull();
    expect(severityFromProto(99)).toBeNull();
  });
});
