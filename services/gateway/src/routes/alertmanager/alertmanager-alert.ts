import { jsonBoundsProblem } from "@pulsegate/contract/limits";
import { findUnstorableText, hasVisibleText } from "@pulsegate/contract/text";
import { isSeverity, type Severity } from "@pulsegate/contract/vocabulary";
import type { AlertmanagerAlert } from "../../validation/alertmanager-payload.ts";
import type { TriggerBody, ValidationDetail } from "../../validation/index.ts";
import { DESCRIPTION_MAX, METADATA_MAX_BYTES, METADATA_MAX_DEPTH, TITLE_MAX } from "../../validation/request-bodies.ts";

const METADATA_BOUNDS = { maxDepth: METADATA_MAX_DEPTH, maxBytes: METADATA_MAX_BYTES };

/** What one alert of a payload asks for: a trigger, a resolve by key, or nothing (why in `details`). */
export type AlertmanagerAction =
  | { fingerprint: string; kind: "trigger"; body: TriggerBody }
  | { fingerprint: string; kind: "resolve" }
  | { fingerprint: string; kind: "invalid"; details: ValidationDetail[] };

/** The usual values of the `severity` label, in Pulsegate's words; `sev0`…`sev4` are taken as they are. */
export const SEVERITY_LABELS: ReadonlyMap<string, Severity> = new Map([
  ["critical", "sev1"],
  ["error", "sev2"],
  ["warning", "sev3"],
  ["info", "sev4"],
]);

/**
 * One Alertmanager alert as a Pulsegate trigger (docs/integrations.md, "Alertmanager"): group key
 * the fingerprint; title `annotations.summary`, else `labels.alertname`, else the label set;
 * description `annotations.description`; severity from `labels.severity` (SEVERITY_LABELS, else
 * the webhook's default); metadata `{labels, annotations, generatorURL}`. A resolved alert is a
 * resolve by its key. Text longer than a trigger allows is shortened (ending in "…"), never
 * refused: the page matters more than the last words of a summary. Text that cannot be stored, or
 * labels and annotations over the metadata bound, make this alert `invalid`; `field` names it in
 * the payload (`alerts[2]`).
 */
export function alertmanagerAction(alert: AlertmanagerAlert, field: string): AlertmanagerAction {
  const { fingerprint } = alert;
  if (alert.status === "resolved") return { fingerprint, kind: "resolve" };
  const details = [
    ...findUnstorableText(alert.labels, `${field}.labels`),
    ...findUnstorableText(alert.annotations, `${field}.annotations`),
    ...findUnstorableText(alert.generatorURL ?? "", `${field}.generatorURL`),
  ];
  const metadata: Record<string, unknown> = {
    labels: alert.labels,
    annotations: alert.annotations,
    ...(alert.generatorURL === undefined ? {} : { generatorURL: alert.generatorURL }),
  };
  // Named as a whole: labels, annotations and generatorURL are stored together, as the metadata.
  const bounds = details.length === 0 ? jsonBoundsProblem(metadata, METADATA_BOUNDS) : null;
  if (bounds !== null) {
    details.push({
      field,
      message: `${field}: its labels, annotations and generatorURL, stored as metadata, ${bounds}.`,
    });
  }
  if (details.length > 0) return { fingerprint, kind: "invalid", details };

  const body: TriggerBody = { title: titleOf(alert), metadata, group_key: fingerprint };
  const description = alert.annotations.description;
  if (description !== undefined && description !== "") body.description = clip(description, DESCRIPTION_MAX);
  const severity = severityOf(alert.labels.severity);
  if (severity !== undefined) body.severity = severity;
  return { fingerprint, kind: "trigger", body };
}

/** `labels.severity` in Pulsegate's words, or undefined (the webhook's default severity). */
export function severityOf(label: string | undefined): Severity | undefined {
  if (label === undefined) return undefined;
  const word = label.trim().toLowerCase();
  return isSeverity(word) ? word : SEVERITY_LABELS.get(word);
}

/** The first of summary, alertname and the label set that shows something, shortened to a title. */
function titleOf(alert: AlertmanagerAlert): string {
  const labelSet = Object.entries(alert.labels)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join(", ");
  const candidates = [alert.annotations.summary, alert.labels.alertname, labelSet ? `{${labelSet}}` : undefined];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    const title = clip(candidate.trim(), TITLE_MAX);
    if (hasVisibleText(title)) return title;
  }
  return `Alertmanager alert ${alert.fingerprint}`;
}

/** `text` in at most `max` code points: longer text keeps its first `max - 1` and ends in "…". */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const codePoints = Array.from(text);
  return codePoints.length <= max ? text : `${codePoints.slice(0, max - 1).join("")}…`;
}
