import type { PgPool } from "@pulsegate/db";
import { type ServiceBinding, unary } from "@pulsegate/grpc";
import { BATCH_LIMITS } from "@pulsegate/limits";
import type { Logger } from "@pulsegate/logger";
import { alerts } from "@pulsegate/proto";
import { traceparentOf } from "@pulsegate/telemetry";
import { alertSourceEnum, alertStatusEnum, severityEnum, webhookSourceEnum } from "@pulsegate/vocabulary/proto";
import type { AlertService } from "../alerts/alert-service.ts";
import { OpenKeys } from "../alerts/open-keys.ts";
import { readAlertUsage } from "../alerts/read-alert-usage.ts";
import { anyResolved, type ResolveByKeyItem, resolveAlertsByKey } from "../alerts/resolve-by-key.ts";
import { previewTriggers, type TriggerItem, triggerAlerts } from "../alerts/trigger-alerts.ts";
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
  notifications: NotificationDeps,
  teamDeletions: TeamDeletions,
  silences?: SilenceService,
): ServiceBinding {
  const openKeys = new OpenKeys();
  const severityName = (value: alerts.Severity): string | undefined =>
    value === alerts.Severity.SEVERITY_UNSPECIFIED ? undefined : (severityEnum.fromProto(value) ?? `unknown(${value})`);

  const implementation: alerts.AlertsServiceServer = {
    createWebhook: unary(log, async (request) => {
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
    }),
    getWebhook: unary(log, async (request) => ({ webhook: webhookToProto(await webhooks.get(request.id)) })),
    updateWebhook: unary(log, async (request) => {
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
    }),
    listWebhooks: unary(log, async (request) => ({
      webhooks: (await webhooks.list(request.teamId)).map((webhook) => webhookToProto(webhook)),
    })),
    resolveWebhook: unary(log, async (request) => {
      const webhook = await webhooks.resolve(request.webhookUrl);
      return { webhook: webhook ? webhookToProto(webhook) : undefined };
    }),
    rotateWebhookBearerToken: unary(log, async (request) => {
      const rotated = await webhooks.rotateBearerToken(request.id, request.graceSeconds);
      return {
        webhook: webhookToProto(rotated.webhook),
        bearerToken: rotated.bearerToken,
        previousValidUntil: rotated.previousValidUntil ?? undefined,
      };
    }),
    authenticateWebhook: unary(log, async (request) => {
      const { webhook, tokenValid } = await webhooks.authenticate(request.webhookUrl, request.bearerToken);
      return { webhook: webhook ? webhookToProto(webhook) : undefined, tokenValid };
    }),
    triggerAlert: unary(log, async (request) => {
      const results = await triggerAlerts(pool, webhooks, triggerItemsFromProto(request.items), {
        log,
        openKeys,
        silences,
      });
      if (results.some((result) => result.outcome === "created" || result.outcome === "reopened")) {
        notifications.onOutboxWritten();
      }
      return { results: results.map(triggerResultToProto) };
    }),
    previewTriggers: unary(log, async (request) => {
      const results = await previewTriggers(pool, webhooks, triggerItemsFromProto(request.items), { silences });
      return { results: results.map(triggerResultToProto) };
    }),
    resolveAlertsByKey: unary(log, async (request) => {
      checkBatchSize(request.items.length);
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
      const results = await resolveAlertsByKey(pool, webhooks, items, { dryRun: request.dryRun });
      if (anyResolved(results) && !request.dryRun) notifications.onOutboxWritten();
      return { results: results.map(resolveByKeyResultToProto) };
    }),
    getAlert: unary(log, async (request) => ({ alert: alertToProto(await alertService.get(request.id)) })),
    listAlerts: unary(log, async (request) => {
      const status =
        request.state === alerts.AlertStatus.ALERT_STATUS_UNSPECIFIED
          ? ""
          : (alertStatusEnum.fromProto(request.state) ?? `unknown(${request.state})`);
      const page = await alertService.list(request.teamId, status, request.cursor, request.limit);
      return { alerts: page.alerts.map(alertToProto), nextCursor: page.nextCursor };
    }),
    listOccurrences: unary(log, async (request) => {
      const page = await alertService.occurrences(request.alertId, request.cursor, request.limit);
      return { occurrences: page.occurrences.map(occurrenceToProto), nextCursor: page.nextCursor };
    }),
    acknowledgeAlert: unary(log, async (request) => ({
      alert: alertToProto(await alertService.acknowledge(request.id)),
    })),
    resolveAlert: unary(log, async (request) => {
      const alert = alertToProto(await alertService.resolve(request.id));
      notifications.onOutboxWritten();
      return { alert };
    }),
    getAlertUsage: unary(log, async (request) => readAlertUsage(pool, request.teamId)),
    deleteWebhook: unary(log, async (request) => ({ webhook: webhookToProto(await webhooks.delete(request.id)) })),
    deleteTeamData: unary(log, async (request) => {
      await teamDeletions.delete(request.teamId);
      return {};
    }),
    ...notificationMethods(log, notifications, alertService),
    ...(silences
      ? silenceMethods(log, silences)
      : {
          createSilence: unavailableSilences,
          listSilences: unavailableSilences,
          deleteSilence: unavailableSilences,
        }),
  };
  return { name: "alerts.v1.AlertsService", definition: alerts.AlertsServiceService, implementation };
}

function checkBatchSize(size: number): void {
  if (size > BATCH_LIMITS.maxItemsPerCall)
    throw alertsErrors.invalid([
      { field: "items", message: `At most ${BATCH_LIMITS.maxItemsPerCall} items per call.` },
    ]);
}

function triggerItemsFromProto(items: alerts.TriggerAlertItem[]): TriggerItem[] {
  checkBatchSize(items.length);
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

/** Without a silence service (tests that build a bare binding): the RPCs are not implemented. */
function unavailableSilences(_call: unknown, callback: (error: { code: number; details: string }) => void): void {
  callback({ code: 12, details: "silences are not configured in this process" });
}
