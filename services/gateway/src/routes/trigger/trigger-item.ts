import { alerts, type auth } from "@pulsegate/proto";
import { severityToProto } from "../../json-vocabulary.ts";
import type { TriggerBody } from "../../validation/index.ts";

/** The TriggerAlert item for a validated body sent to `webhook`. */
export function toTriggerItem(
  webhook: alerts.Webhook,
  access: auth.TeamAccess,
  body: TriggerBody,
  idempotency: Pick<alerts.TriggerAlertItem, "idempotencyKey" | "requestFingerprint"> = {
    idempotencyKey: "",
    requestFingerprint: "",
  },
): alerts.TriggerAlertItem {
  return {
    teamId: webhook.teamId,
    source: alerts.AlertSource.ALERT_SOURCE_WEBHOOK,
    sourceId: webhook.id,
    title: body.title,
    description: body.description ?? "",
    severity: severityToProto(body.severity),
    metadataJson: body.metadata === undefined ? "" : JSON.stringify(body.metadata),
    groupKey: body.group_key ?? "",
    alertQuotaMonthly: access.alertQuotaMonthly,
    // Webhooks carry their own reopen window; this field is for monitor sources.
    reopenWindowSeconds: 0,
    // Likewise the reminder interval.
    repeatIntervalSeconds: 0,
    // Set from the request's trace context when the item is sent (coalesced-calls.ts).
    traceparent: "",
    ...idempotency,
  };
}
