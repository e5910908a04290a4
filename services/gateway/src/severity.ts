import { alerts } from "@pulsegate/proto";
import type { Severity } from "./validation/index.ts";

/** The only mapping between JSON severities ("sev0".."sev4") and the proto enum. */
const TO_PROTO: Record<Severity, alerts.Severity> = {
  sev0: alerts.Severity.SEVERITY_SEV0,
  sev1: alerts.Severity.SEVERITY_SEV1,
  sev2: alerts.Severity.SEVERITY_SEV2,
  sev3: alerts.Severity.SEVERITY_SEV3,
  sev4: alerts.Severity.SEVERITY_SEV4,
};

const FROM_PROTO = new Map<number, Severity>(
  Object.entries(TO_PROTO).map(([json, proto]) => [proto, json as Severity]),
);

/** `undefined` (absent) becomes UNSPECIFIED, which means "the webhook's default". */
export function severityToProto(severity: Severity | undefined): alerts.Severity {
  return severity === undefined ? alerts.Severity.SEVERITY_UNSPECIFIED : TO_PROTO[severity];
}

/** UNSPECIFIED or unknown values become null. */
export function severityFromProto(severity: number): Severity | null {
  return FROM_PROTO.get(severity) ?? null;
}
