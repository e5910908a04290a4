import type { FieldProblem } from "@pulsegate/contract/errors";
import { MONITOR_LIMITS } from "@pulsegate/contract/limits";
import { nameProblem } from "@pulsegate/contract/text";
import { isOneOf, type Severity, SIGNATURE_SCHEMES, type SignatureScheme } from "@pulsegate/contract/vocabulary";
import { checkSchedule, DEFAULT_TIMEZONE, type Schedule } from "./schedule.ts";

export type MonitorSettingsInput = {
  name: string;
  intervalSeconds?: number | undefined;
  graceSeconds?: number | undefined;
  /** Undefined: the default. */
  severity?: Severity | undefined;
  reopenWindowSeconds?: number | undefined;
  /** "" or undefined: an interval monitor. */
  schedule?: string | undefined;
  /** "" or undefined: UTC (only with a schedule). */
  timezone?: string | undefined;
  /** 0 or undefined: no maximum. */
  maxDurationSeconds?: number | undefined;
  /** 0 or undefined: no reminders. */
  repeatIntervalSeconds?: number | undefined;
  requireTimestamp?: boolean | undefined;
  /** Undefined: pulsegate. */
  signatureScheme?: string | undefined;
};

export type MonitorSettings = {
  name: string;
  intervalSeconds: number;
  graceSeconds: number;
  severity: Severity;
  reopenWindowSeconds: number;
  schedule: Schedule | null;
  maxDurationSeconds: number | null;
  repeatIntervalSeconds: number | null;
  requireTimestamp: boolean;
  signatureScheme: SignatureScheme;
};

function checkInt(
  value: number | undefined,
  field: string,
  min: number,
  max: number,
  fallback: number,
  errors: FieldProblem[],
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    errors.push({ field, message: `${field} must be an integer from ${min} to ${max}.` });
  }
  return value;
}

/** Validates a new monitor's settings and fills in the defaults. */
export function checkMonitorSettings(input: MonitorSettingsInput): {
  settings: MonitorSettings;
  errors: FieldProblem[];
} {
  const errors: FieldProblem[] = [];
  const name = input.name.trim();
  const problem = nameProblem(name, MONITOR_LIMITS.nameMaxLength);
  if (problem) errors.push(problem);
  const expression = input.schedule?.trim() ?? "";
  const timezone = input.timezone?.trim() ?? "";
  let schedule: Schedule | null = null;
  if (expression !== "") {
    if (input.intervalSeconds !== undefined) {
      errors.push({ field: "intervalSeconds", message: "Give either intervalSeconds or schedule, not both." });
    }
    schedule = { expression, timezone: timezone || DEFAULT_TIMEZONE };
    errors.push(...checkSchedule(schedule.expression, schedule.timezone));
  } else if (timezone !== "") {
    errors.push({ field: "timezone", message: "timezone applies to a schedule; give schedule too." });
  }
  const maxDuration = checkInt(
    input.maxDurationSeconds,
    "maxDurationSeconds",
    0,
    MONITOR_LIMITS.maxMaxDurationSeconds,
    0,
    errors,
  );
  const settings: MonitorSettings = {
    name,
    intervalSeconds: checkInt(
      input.intervalSeconds,
      "intervalSeconds",
      1,
      MONITOR_LIMITS.maxIntervalSeconds,
      MONITOR_LIMITS.defaultIntervalSeconds,
      errors,
    ),
    graceSeconds: checkInt(
      input.graceSeconds,
      "graceSeconds",
      0,
      MONITOR_LIMITS.maxGraceSeconds,
      MONITOR_LIMITS.defaultGraceSeconds,
      errors,
    ),
    severity: input.severity ?? (MONITOR_LIMITS.defaultSeverity as Severity),
    reopenWindowSeconds: checkInt(
      input.reopenWindowSeconds,
      "reopenWindowSeconds",
      0,
      MONITOR_LIMITS.maxReopenWindowSeconds,
      MONITOR_LIMITS.defaultReopenWindowSeconds,
      errors,
    ),
    schedule,
    maxDurationSeconds: maxDuration > 0 ? maxDuration : null,
    repeatIntervalSeconds: checkRepeatInterval(input.repeatIntervalSeconds, errors),
    requireTimestamp: input.requireTimestamp ?? false,
    signatureScheme: checkSignatureScheme(input.signatureScheme, errors),
  };
  return { settings, errors };
}

/** 0 or absent: no reminders (null); otherwise 60 s to 7 days. */
function checkRepeatInterval(value: number | undefined, errors: FieldProblem[]): number | null {
  if (value === undefined || value === 0) return null;
  const { minRepeatIntervalSeconds: min, maxRepeatIntervalSeconds: max } = MONITOR_LIMITS;
  if (!Number.isInteger(value) || value < min || value > max) {
    errors.push({
      field: "repeatIntervalSeconds",
      message: `repeatIntervalSeconds must be 0 (no reminders) or a whole number from ${min} to ${max}.`,
    });
    return null;
  }
  return value;
}

/** How pings are signed: the interface's scheme unless asked. */
function checkSignatureScheme(value: string | undefined, errors: FieldProblem[]): SignatureScheme {
  if (value === undefined) return "pulsegate";
  if (isOneOf(SIGNATURE_SCHEMES, value)) return value;
  errors.push({ field: "signatureScheme", message: `signatureScheme must be one of ${SIGNATURE_SCHEMES.join(", ")}.` });
  return "pulsegate";
}
