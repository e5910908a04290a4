import { alerts, type auth } from "@pulsegate/proto";
import { alertStatusJson, severityJson, webhookSourceJson } from "../../json-vocabulary.ts";
import { fromJsonText, iso, orNull } from "./absent-as-null.ts";
import { signingKeyJson } from "./signing-key.ts";

/** JSON shapes of the admin API (camelCase; absent timestamps and strings are null). */

/** A team as shown to admins: fingerprints and dates, never a secret. */
export function teamJson(team: auth.Team) {
  return {
    id: team.id,
    name: team.name,
    subscriptionExpiresAt: iso(team.subscriptionExpiresAt),
    alertQuotaMonthly: team.alertQuotaMonthly,
    heartbeatQuotaMonthly: team.heartbeatQuotaMonthly,
    createdAt: iso(team.createdAt),
    secretFingerprint: orNull(team.secretFingerprint),
    secretRotatedAt: iso(team.secretRotatedAt),
    currentSecretLastUsedAt: iso(team.currentSecretLastUsedAt),
    previousSecretFingerprint: orNull(team.previousSecretFingerprint),
    previousSecretValidUntil: iso(team.previousSecretValidUntil),
    previousSecretLastUsedAt: iso(team.previousSecretLastUsedAt),
  };
}

export type FilterRuleJson = { field: string; op: string; value?: unknown };

export function filterRuleJson(rule: alerts.FilterRule): FilterRuleJson {
  return rule.valueJson === ""
    ? { field: rule.field, op: rule.op }
    : { field: rule.field, op: rule.op, value: fromJsonText(rule.valueJson) };
}

export function filterRuleToProto(rule: FilterRuleJson): alerts.FilterRule {
  return { field: rule.field, op: rule.op, valueJson: rule.value === undefined ? "" : JSON.stringify(rule.value) };
}

/**
 * `baseUrl` is the scheme and host the admin request came to, e.g. "https://pulsegate.example". A
 * webhook's requests go where its source is read: an Alertmanager webhook's `triggerUrl` is the one
 * to paste into Alertmanager's `webhook_configs`.
 */
export function webhookJson(webhook: alerts.Webhook, baseUrl: string) {
  const alertmanager = webhook.source === alerts.WebhookSource.WEBHOOK_SOURCE_ALERTMANAGER;
  const route = alertmanager ? "alertmanager" : "trigger";
  const signing = signingKeyJson(webhook.signatureScheme);
  return {
    id: webhook.id,
    teamId: webhook.teamId,
    source: webhookSourceJson(webhook.source),
    webhookUrl: webhook.webhookUrl,
    triggerUrl: `${baseUrl}/api/alerts/${route}/${encodeURIComponent(webhook.webhookUrl)}`,
    name: webhook.name,
    defaultSeverity: severityJson(webhook.defaultSeverity),
    enabled: webhook.enabled,
    filterRules: webhook.filterRules.map(filterRuleJson),
    rateLimitPerMinute: webhook.rateLimitPerMinute,
    reopenWindowSeconds: webhook.reopenWindowSeconds,
    repeatIntervalSeconds: webhook.repeatIntervalSeconds > 0 ? webhook.repeatIntervalSeconds : null,
    requireTimestamp: webhook.requireTimestamp,
    previousBearerTokenValidUntil: iso(webhook.previousBearerTokenValidUntil),
    ...signing,
    // An Alertmanager webhook signs nothing: no scheme (its key fields are null, as for pulsegate).
    signatureScheme: alertmanager ? null : signing.signatureScheme,
    createdAt: iso(webhook.createdAt),
    updatedAt: iso(webhook.updatedAt),
  };
}

const SOURCES: ReadonlyMap<number, string> = new Map([
  [alerts.AlertSource.ALERT_SOURCE_WEBHOOK, "webhook"],
  [alerts.AlertSource.ALERT_SOURCE_MONITOR, "monitor"],
]);

export function alertJson(alert: alerts.Alert) {
  return {
    id: alert.id,
    teamId: alert.teamId,
    status: alertStatusJson(alert.state),
    groupKey: orNull(alert.groupKey),
    title: alert.title,
    description: alert.description,
    severity: severityJson(alert.severity),
    occurrenceCount: alert.occurrenceCount,
    source: SOURCES.get(alert.source) ?? null,
    sourceId: alert.sourceId,
    metadata: fromJsonText(alert.metadataJson),
    firstSeenAt: iso(alert.firstSeenAt),
    lastSeenAt: iso(alert.lastSeenAt),
    acknowledgedAt: iso(alert.acknowledgedAt),
    resolvedAt: iso(alert.resolvedAt),
    repeatIntervalSeconds: alert.repeatIntervalSeconds > 0 ? alert.repeatIntervalSeconds : null,
    nextReminderAt: iso(alert.nextReminderAt),
    remindersSent: alert.remindersSent,
    silencedBy: orNull(alert.silencedBy),
    acknowledgedBy: orNull(alert.acknowledgedBy),
    resolvedBy: orNull(alert.resolvedBy),
  };
}

export function occurrenceJson(occurrence: alerts.Occurrence) {
  return {
    id: occurrence.id,
    alertId: occurrence.alertId,
    source: SOURCES.get(occurrence.source) ?? null,
    sourceId: occurrence.sourceId,
    title: occurrence.title,
    description: occurrence.description,
    severity: severityJson(occurrence.severity),
    metadata: fromJsonText(occurrence.metadataJson),
    receivedAt: iso(occurrence.receivedAt),
  };
}

/** Lists end with `nextCursor: null`; services use "" for "no more". */
export const cursorJson = (cursor: string): string | null => orNull(cursor);
