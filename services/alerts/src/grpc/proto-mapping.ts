import {
  alertSourceEnum,
  alertStatusEnum,
  severityEnum,
  signatureSchemeEnum,
  webhookSourceEnum,
} from "@pulsegate/contract/vocabulary/proto";
import { outcomeFields } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import type { AlertView } from "../alerts/alert-row.ts";
import type { ResolveByKeyResult } from "../alerts/resolve-by-key.ts";
import type { OccurrenceView } from "../alerts/select-occurrence-page.ts";
import type { TriggerResult } from "../alerts/trigger-alerts.ts";
import type { FilterRule } from "../filter-rules/index.ts";
import type { Webhook } from "../webhooks/webhook.entity.ts";

export function filterRulesFromProto(rules: alerts.FilterRule[]): unknown[] {
  return rules.map((rule) => {
    const parsed: Record<string, unknown> = { field: rule.field, op: rule.op };
    if (rule.valueJson !== "") {
      try {
        parsed.value = JSON.parse(rule.valueJson);
      } catch {
        // An unparsable value is kept as text so validation reports it.
        parsed.value = rule.valueJson;
      }
    }
    return parsed;
  });
}

export function filterRulesToProto(rules: FilterRule[]): alerts.FilterRule[] {
  return rules.map((rule) => ({
    field: rule.field,
    op: rule.op,
    valueJson: rule.value === undefined ? "" : JSON.stringify(rule.value),
  }));
}

/** `now`: a replaced bearer token's grace that has ended is not shown. */
export function webhookToProto(webhook: Webhook, now: Date = new Date()): alerts.Webhook {
  const previousValidUntil = webhook.previousBearerTokenValidUntil ?? undefined;
  return {
    id: webhook.id,
    teamId: webhook.teamId,
    webhookUrl: webhook.webhookUrl,
    name: webhook.name,
    defaultSeverity: severityEnum.toProto(webhook.defaultSeverity),
    enabled: webhook.enabled,
    filterRules: filterRulesToProto(webhook.filterRules),
    rateLimitPerMinute: webhook.rateLimitPerMinute,
    reopenWindowSeconds: webhook.reopenWindowSeconds,
    repeatIntervalSeconds: webhook.repeatIntervalSeconds ?? 0,
    requireTimestamp: webhook.requireTimestamp ?? false,
    source: webhookSourceEnum.toProto(webhook.source ?? "signed"),
    previousBearerTokenValidUntil: previousValidUntil && previousValidUntil > now ? previousValidUntil : undefined,
    // An Alertmanager webhook signs nothing: its stored default scheme is not shown.
    signatureScheme:
      webhook.source === "alertmanager"
        ? alerts.SignatureScheme.SIGNATURE_SCHEME_UNSPECIFIED
        : signatureSchemeEnum.toProto(webhook.signatureScheme ?? "pulsegate"),
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  };
}

/** UNSPECIFIED is absent (the default, or unchanged); a value this build does not know is named so it is refused. */
export function signatureSchemeFromProto(value: alerts.SignatureScheme): string | undefined {
  if (value === alerts.SignatureScheme.SIGNATURE_SCHEME_UNSPECIFIED) return undefined;
  return signatureSchemeEnum.fromProto(value) ?? `unknown(${value})`;
}

export function alertToProto(alert: AlertView): alerts.Alert {
  return {
    id: alert.id,
    teamId: alert.teamId,
    state: alertStatusEnum.toProto(alert.status),
    groupKey: alert.groupKey ?? "",
    title: alert.title,
    description: alert.description,
    severity: severityEnum.toProto(alert.severity),
    occurrenceCount: alert.occurrenceCount,
    source: alertSourceEnum.toProto(alert.source),
    sourceId: alert.sourceId,
    metadataJson: alert.metadata === null || alert.metadata === undefined ? "" : JSON.stringify(alert.metadata),
    firstSeenAt: alert.firstSeenAt,
    lastSeenAt: alert.lastSeenAt,
    acknowledgedAt: alert.acknowledgedAt ?? undefined,
    resolvedAt: alert.resolvedAt ?? undefined,
    repeatIntervalSeconds: alert.repeatIntervalSeconds ?? 0,
    nextReminderAt: alert.nextReminderAt ?? undefined,
    remindersSent: alert.remindersSent ?? 0,
    silencedBy: alert.silencedBy ?? "",
    acknowledgedBy: alert.acknowledgedBy ?? "",
    resolvedBy: alert.resolvedBy ?? "",
  };
}

export function occurrenceToProto(occurrence: OccurrenceView): alerts.Occurrence {
  return {
    id: occurrence.id,
    alertId: occurrence.alertId,
    source: alertSourceEnum.toProto(occurrence.source),
    sourceId: occurrence.sourceId,
    title: occurrence.title,
    description: occurrence.description,
    severity: severityEnum.toProto(occurrence.severity),
    metadataJson:
      occurrence.metadata === null || occurrence.metadata === undefined ? "" : JSON.stringify(occurrence.metadata),
    receivedAt: occurrence.receivedAt,
  };
}

const OUTCOME_TO_PROTO: Record<TriggerResult["outcome"], alerts.TriggerOutcome> = {
  created: alerts.TriggerOutcome.TRIGGER_OUTCOME_CREATED,
  occurrence_added: alerts.TriggerOutcome.TRIGGER_OUTCOME_OCCURRENCE_ADDED,
  reopened: alerts.TriggerOutcome.TRIGGER_OUTCOME_REOPENED,
  filtered: alerts.TriggerOutcome.TRIGGER_OUTCOME_FILTERED,
  quota_exhausted: alerts.TriggerOutcome.TRIGGER_OUTCOME_QUOTA_EXHAUSTED,
  source_not_found: alerts.TriggerOutcome.TRIGGER_OUTCOME_SOURCE_NOT_FOUND,
  invalid: alerts.TriggerOutcome.TRIGGER_OUTCOME_INVALID,
  idempotency_key_reused: alerts.TriggerOutcome.TRIGGER_OUTCOME_IDEMPOTENCY_KEY_REUSED,
};

/** What a result sends for the alert and violations its outcome has none of. */
const NO_ALERT = { alertId: "", occurrenceCount: 0, violations: [] as alerts.FieldViolation[], replayed: false };
const NO_ALERT_NOR_REASON = { ...NO_ALERT, reason: "" };

export function triggerResultToProto(result: TriggerResult): alerts.TriggerAlertResult {
  return { outcome: OUTCOME_TO_PROTO[result.outcome], ...outcomeFields(result, NO_ALERT_NOR_REASON) };
}

const RESOLVE_OUTCOME_TO_PROTO: Record<ResolveByKeyResult["outcome"], alerts.ResolveByKeyOutcome> = {
  resolved: alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_RESOLVED,
  already_resolved: alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_ALREADY_RESOLVED,
  no_alert: alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_NO_ALERT,
  source_not_found: alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_SOURCE_NOT_FOUND,
  invalid: alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_INVALID,
  idempotency_key_reused: alerts.ResolveByKeyOutcome.RESOLVE_BY_KEY_OUTCOME_IDEMPOTENCY_KEY_REUSED,
};

export function resolveByKeyResultToProto(result: ResolveByKeyResult): alerts.ResolveByKeyResult {
  return { outcome: RESOLVE_OUTCOME_TO_PROTO[result.outcome], ...outcomeFields(result, NO_ALERT) };
}
