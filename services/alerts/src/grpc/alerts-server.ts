import {
  alertSourceEnum,
  alertStatusEnum,
  severityEnum,
  webhookSourceEnum,
} from "@pulsegate/contract/vocabulary/proto";
import type { PgPool } from "@pulsegate/db";
import { type ServiceBinding, type UnaryHandlers, unaryService } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import type { Logger } from "@pulsegate/runtime/logger";
import { traceparentOf } from "@pulsegate/telemetry";
import type { AlertService } from "../alerts/alert-service.ts";
import { readAlertUsage } from "../alerts/read-alert-usage.ts";
import type { ResolveByKeyItem } from "../alerts/resolve-by-key.ts";
import type { TriggerItem } from "../alerts/trigger-alerts.ts";
import type { TriggerService } from "../alerts/trigger-service.ts";
import type { TeamDeletions } from "../deletion/team-deletions.ts";
import { alertsErrors } from "../errors.ts";
import type { SilenceService } from "../silences/silence-service.ts";
import type { WebhookService } from "../webhooks/webhook-service.ts";
import { type NotificationDeps, notificationMethods } from "./notifications-server.ts";
import {
  alertToProto,
  filterRulesFromProto,
  occurrenceToProto,
  resolveByKeyResultToProto,
  signatureSchemeFromProto,
  triggerResultToProto,
  webhookToProto,
} from "./proto-mapping.ts";
import { silenceMethods } from "./silences-server.ts";

/** Translates alerts.v1 messages to the domain and back; no rules live here. */
export function alertsServiceBinding(
  log: Logger,
  pool: PgPool,
  webhooks: WebhookService,
  alertService: AlertService,
  triggers: TriggerService,
  notifications: NotificationDeps,
  teamDeletions: TeamDeletions,
  silences: SilenceService,
): ServiceBinding {
  const severityName = (value: alerts.Severity): string | undefined =>
    value === alerts.Severity.SEVERITY_UNSPECIFIED ? undefined : (severityEnum.fromProto(value) ?? `unknown(${value})`);

  const handlers: UnaryHandlers<alerts.AlertsServiceServer> = {
    createWebhook: async (request) => {
      const { webhook, bearerToken } = await webhooks.create(request.teamId, {
        name: request.name,
        defaultSeverity: severityName(request.defaultSeverity),
        enabled: request.enabled,
        filterRules: filterRulesFromProto(request.filterRules),
        rateLimitPerMinute: request.rateLimitPerMinute,
        reopenWindowSeconds: request.reopenWindowSeconds,
        repeatIntervalSeconds: request.repeatIntervalSeconds,
        requireTimestamp: request.requireTimestamp,
        signatureScheme: signatureSchemeFromProto(request.signatureScheme),
        source:
          request.source === alerts.WebhookSource.WEBHOOK_SOURCE_UNSPECIFIED
            ? undefined
            : (webhookSourceEnum.fromProto(request.source) ?? `unknown(${request.source})`),
      });
      return { webhook: webhookToProto(webhook), bearerToken: bearerToken ?? "" };
    },
    getWebhook: async (request) => ({ webhook: webhookToProto(await webhooks.get(request.id)) }),
    updateWebhook: async (request) => {
      const webhook = await webhooks.update(request.id, {
        name: request.name,
        defaultSeverity: severityName(request.defaultSeverity),
        enabled: request.enabled,
        filterRules: request.replaceFilterRules ? filterRulesFromProto(request.filterRules) : undefined,
        rateLimitPerMinute: request.rateLimitPerMinute,
        reopenWindowSeconds: request.reopenWindowSeconds,
        repeatIntervalSeconds: request.repeatIntervalSeconds,
        requireTimestamp: request.requireTimestamp,
        signatureScheme: signatureSchemeFromProto(request.signatureScheme),
      });
      return { webhook: webhookToProto(webhook) };
    },
    listWebhooks: async (request) => ({
      webhooks: (await webhooks.list(request.teamId)).map((webhook) => webhookToProto(webhook)),
    }),
    lookupWebhook: async (request) => {
      const webhook = await webhooks.lookup(request.webhookUrl);
      return { webhook: webhook ? webhookToProto(webhook) : undefined };
    },
    // The deprecated name of lookupWebhook, for a previous release's gateway. Remove after the next release.
    resolveWebhook: (request, call) => handlers.lookupWebhook(request, call),
    rotateWebhookBearerToken: async (request) => {
      const rotated = await webhooks.rotateBearerToken(request.id, request.graceSeconds);
      return {
        webhook: webhookToProto(rotated.webhook),
        bearerToken: rotated.bearerToken,
        previousValidUntil: rotated.previousValidUntil ?? undefined,
      };
    },
    authenticateWebhook: async (request) => {
      const { webhook, tokenValid } = await webhooks.authenticate(request.webhookUrl, request.bearerToken);
      return { webhook: webhook ? webhookToProto(webhook) : undefined, tokenValid };
    },
    triggerAlert: async (request) => ({
      results: (await triggers.trigger(triggerItemsFromProto(request.items))).map(triggerResultToProto),
    }),
    previewTriggers: async (request) => ({
      results: (await triggers.preview(triggerItemsFromProto(request.items))).map(triggerResultToProto),
    }),
    resolveAlertsByKey: async (request) => {
      const items = request.items.map((item, index): ResolveByKeyItem => {
        const source = alertSourceEnum.fromProto(item.source);
        if (!source) throw alertsErrors.invalid([{ field: `items[${index}].source`, message: "source is required." }]);
        return {
          teamId: item.teamId,
          source,
          sourceId: item.sourceId,
          groupKey: item.groupKey,
          idempotency: item.idempotencyKey
            ? { teamId: item.teamId, key: item.idempotencyKey, fingerprint: item.requestFingerprint }
            : null,
        };
      });
      const results = await triggers.resolveByKey(items, request.dryRun);
      return { results: results.map(resolveByKeyResultToProto) };
    },
    getAlert: async (request) => ({ alert: alertToProto(await alertService.get(request.id)) }),
    listAlerts: async (request) => {
      const status =
        request.state === alerts.AlertStatus.ALERT_STATUS_UNSPECIFIED
          ? ""
          : (alertStatusEnum.fromProto(request.state) ?? `unknown(${request.state})`);
      const page = await alertService.list(request.teamId, status, request.cursor, request.limit);
      return { alerts: page.alerts.map(alertToProto), nextCursor: page.nextCursor };
    },
    listOccurrences: async (request) => {
      const page = await alertService.occurrences(request.alertId, request.cursor, request.limit);
      return { occurrences: page.occurrences.map(occurrenceToProto), nextCursor: page.nextCursor };
    },
    acknowledgeAlert: async (request) => ({
      alert: alertToProto(await alertService.acknowledge(request.id, request.by || null)),
    }),
    resolveAlert: async (request) => ({
      alert: alertToProto(await alertService.resolve(request.id, request.by || null)),
    }),
    getAlertUsage: async (request) => readAlertUsage(pool, request.teamId),
    deleteWebhook: async (request) => ({ webhook: webhookToProto(await webhooks.delete(request.id)) }),
    deleteTeamData: async (request) => {
      await teamDeletions.delete(request.teamId);
      return {};
    },
    ...notificationMethods(notifications, alertService),
    ...silenceMethods(silences),
  };
  const batch = { field: "items", noun: "items" };
  const implementation = unaryService<alerts.AlertsServiceServer>(log, handlers, {
    triggerAlert: batch,
    previewTriggers: batch,
    resolveAlertsByKey: batch,
  });
  return { name: "alerts.v1.AlertsService", definition: alerts.AlertsServiceService, implementation };
}

function triggerItemsFromProto(items: alerts.TriggerAlertItem[]): TriggerItem[] {
  return items.map((item, index): TriggerItem => {
    const source = alertSourceEnum.fromProto(item.source);
    if (!source) throw alertsErrors.invalid([{ field: `items[${index}].source`, message: "source is required." }]);
    const severity =
      item.severity === alerts.Severity.SEVERITY_UNSPECIFIED ? undefined : severityEnum.fromProto(item.severity);
    if (item.severity !== alerts.Severity.SEVERITY_UNSPECIFIED && !severity) {
      throw alertsErrors.invalid([{ field: `items[${index}].severity`, message: "severity is not known." }]);
    }
    return {
      teamId: item.teamId,
      source,
      sourceId: item.sourceId,
      title: item.title,
      description: item.description,
      severity,
      metadataJson: item.metadataJson === "" ? null : item.metadataJson,
      groupKey: item.groupKey === "" ? null : item.groupKey,
      alertQuotaMonthly: item.alertQuotaMonthly,
      reopenWindowSeconds: item.reopenWindowSeconds,
      // Its request's trace; a caller without one (a monitor's incident) is this call's.
      traceparent: item.traceparent || traceparentOf(),
      repeatIntervalSeconds: item.repeatIntervalSeconds,
      idempotencyKey: item.idempotencyKey,
      requestFingerprint: item.requestFingerprint,
    };
  });
}
