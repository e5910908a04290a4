import { ALERTMANAGER_LIMITS } from "@pulsegate/contract/limits";
import { textFault, textProblem } from "@pulsegate/contract/text";
import { codePointLength, isPlainObject } from "./field-checks.ts";
import type { ParseResult, ValidationDetail } from "./request-bodies.ts";

/** One alert of an Alertmanager webhook payload, as far as Pulsegate reads it. */
export type AlertmanagerAlert = {
  status: "firing" | "resolved";
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Absent in the payload: undefined (Alertmanager always sends it, possibly ""). */
  generatorURL?: string;
  fingerprint: string;
};

export type AlertmanagerPayload = { alerts: AlertmanagerAlert[] };

const STATUSES = ["firing", "resolved"] as const;

/**
 * Checks the shape of Alertmanager's webhook payload, version "4"
 * (https://prometheus.io/docs/alerting/latest/configuration/#webhook_config): a JSON object with
 * `version: "4"` and `alerts`, an array of at most ALERTMANAGER_LIMITS.maxAlertsPerPayload alerts,
 * each an object with `status` "firing" or "resolved", a `fingerprint` (the group key: a non-empty
 * string of at most 200 code points that can be stored), `labels` and, if present, `annotations`
 * as objects of strings, and `generatorURL`, if present, a string. Every problem is reported, named
 * by its path (`alerts[2].labels.severity`). Other fields (receiver, groupLabels, startsAt…) are
 * not read. What a real Alertmanager can send in a well-formed payload (a long summary, a NUL in
 * a label) is not refused here: it is that one alert's outcome (alertmanager-alert.ts), so one odd
 * alert never keeps its whole group from paging.
 */
export function parseAlertmanagerPayload(value: unknown): ParseResult<AlertmanagerPayload> {
  if (!isPlainObject(value)) return fail([{ field: "body", message: "body must be a JSON object." }]);
  const details: ValidationDetail[] = [];
  if (value.version !== "4") {
    details.push({
      field: "version",
      message: 'version must be "4": this endpoint takes Alertmanager\'s webhook payload (version 4).',
    });
  }
  const alerts = value.alerts;
  if (!Array.isArray(alerts)) {
    details.push({ field: "alerts", message: "alerts must be an array of Alertmanager alerts." });
    return fail(details);
  }
  const max = ALERTMANAGER_LIMITS.maxAlertsPerPayload;
  if (alerts.length > max) {
    details.push({
      field: "alerts",
      message: `alerts must hold at most ${max} alerts (this one holds ${alerts.length}): set max_alerts: ${max} in Alertmanager's webhook_configs.`,
    });
    return fail(details);
  }
  const parsed = alerts.map((alert, index) => parseAlert(alert, `alerts[${index}]`, details));
  if (details.length > 0) return fail(details);
  return { ok: true, value: { alerts: parsed as AlertmanagerAlert[] } };
}

function parseAlert(value: unknown, field: string, details: ValidationDetail[]): AlertmanagerAlert | undefined {
  if (!isPlainObject(value)) {
    details.push({ field, message: `${field} must be an object (an Alertmanager alert).` });
    return undefined;
  }
  const before = details.length;
  const status = value.status;
  if (!STATUSES.includes(status as (typeof STATUSES)[number])) {
    details.push({ field: `${field}.status`, message: `${field}.status must be one of ${STATUSES.join(", ")}.` });
  }
  const fingerprint = checkFingerprint(value.fingerprint, `${field}.fingerprint`, details);
  const labels = checkStringMap(value.labels, `${field}.labels`, details);
  const annotations =
    value.annotations === undefined ? {} : checkStringMap(value.annotations, `${field}.annotations`, details);
  const generatorURL = value.generatorURL;
  if (generatorURL !== undefined && typeof generatorURL !== "string") {
    details.push({ field: `${field}.generatorURL`, message: `${field}.generatorURL must be a string.` });
  }
  if (details.length > before) return undefined;
  return {
    status: status as AlertmanagerAlert["status"],
    labels: labels as Record<string, string>,
    annotations: annotations as Record<string, string>,
    ...(typeof generatorURL === "string" ? { generatorURL } : {}),
    fingerprint: fingerprint as string,
  };
}

/** The fingerprint becomes the group key, so it is held to the group key's rules. */
function checkFingerprint(value: unknown, field: string, details: ValidationDetail[]): string | undefined {
  const max = ALERTMANAGER_LIMITS.fingerprintMaxLength;
  if (typeof value !== "string" || value === "") {
    details.push({ field, message: `${field} must be a non-empty string (Alertmanager's fingerprint of the alert).` });
    return undefined;
  }
  const fault = textFault(value);
  if (fault) {
    details.push(textProblem(field, fault));
    return undefined;
  }
  if (value.length > max && codePointLength(value) > max) {
    details.push({ field, message: `${field} must be at most ${max} characters.` });
    return undefined;
  }
  return value;
}

/** Labels and annotations: objects whose values are strings (their text is checked per alert). */
function checkStringMap(
  value: unknown,
  field: string,
  details: ValidationDetail[],
): Record<string, string> | undefined {
  if (!isPlainObject(value)) {
    details.push({ field, message: `${field} must be an object of strings.` });
    return undefined;
  }
  const wrong = Object.keys(value).filter((key) => typeof value[key] !== "string");
  for (const key of wrong) details.push({ field: `${field}.${key}`, message: `${field}.${key} must be a string.` });
  return wrong.length > 0 ? undefined : (value as Record<string, string>);
}

function fail<T>(details: ValidationDetail[]): ParseResult<T> {
  return { ok: false, details };
}
