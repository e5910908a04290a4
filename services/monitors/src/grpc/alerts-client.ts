import { createHash } from "node:crypto";
import { NotFoundError } from "@pulsegate/contract/errors";
import { severityEnum } from "@pulsegate/contract/vocabulary/proto";
import { callUnary, type DeadlineClient, domainErrorFromGrpc, refusalOf } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import { traceparentOf } from "@pulsegate/telemetry";
import type { AlertsPort, IncidentAlert, RaiseOutcome, Refused } from "../incidents/alerts-port.ts";

const RAISED: ReadonlyMap<number, string> = new Map([
  [alerts.TriggerOutcome.TRIGGER_OUTCOME_CREATED, "created"],
  [alerts.TriggerOutcome.TRIGGER_OUTCOME_OCCURRENCE_ADDED, "occurrence_added"],
  [alerts.TriggerOutcome.TRIGGER_OUTCOME_REOPENED, "reopened"],
]);

/** The incident worker's AlertsPort over the alerts service's gRPC API (TriggerAlert, ResolveAlert). */
export function alertsOverGrpc(client: DeadlineClient<alerts.AlertsServiceClient>): AlertsPort {
  return {
    async raise(incident: IncidentAlert): Promise<RaiseOutcome> {
      let response: alerts.TriggerAlertResponse;
      try {
        response = await callUnary(client, "triggerAlert", { items: [triggerItem(incident)] });
      } catch (error) {
        const reason = refusalOf(error);
        if (reason !== undefined) return { kind: "refused", reason };
        throw error;
      }
      const result = response.results[0];
      // Alerts' verdict on the item itself (text it cannot store, metadata that is not an object).
      if (result?.outcome === alerts.TriggerOutcome.TRIGGER_OUTCOME_INVALID) {
        return { kind: "refused", reason: "TRIGGER_OUTCOME_INVALID" };
      }
      const raised = result ? RAISED.get(result.outcome) : undefined;
      if (!result || !raised) return { kind: "not_raised", outcome: `outcome_${result?.outcome ?? "none"}` };
      return { kind: "raised", outcome: raised, alertId: result.alertId };
    },

    async resolve(alertId: string): Promise<"resolved" | Refused> {
      try {
        // Resolved by the monitor itself (a successful run), not by anyone.
        await callUnary(client, "resolveAlert", { id: alertId, by: "" });
      } catch (error) {
        const reason = refusalOf(error);
        if (reason !== undefined) return { kind: "refused", reason };
        // Already gone is as good as resolved.
        if (!(domainErrorFromGrpc(error) instanceof NotFoundError)) throw error;
      }
      return "resolved";
    },
  };
}

function triggerItem(incident: IncidentAlert): alerts.TriggerAlertItem {
  return {
    teamId: incident.teamId,
    source: alerts.AlertSource.ALERT_SOURCE_MONITOR,
    sourceId: incident.monitorId,
    title: incident.title,
    description: incident.description,
    severity: severityEnum.toProto(incident.severity),
    metadataJson: incident.metadata === null ? "" : JSON.stringify(incident.metadata),
    groupKey: incident.groupKey,
    alertQuotaMonthly: incident.alertQuotaMonthly,
    reopenWindowSeconds: incident.reopenWindowSeconds,
    repeatIntervalSeconds: incident.repeatIntervalSeconds ?? 0,
    // The caller's span (the incident action's): the alert's notifications continue its trace.
    traceparent: traceparentOf(),
    ...incidentIdempotency(incident),
  };
}

/**
 * The action's own idempotency key: sent again after its answer was lost (alerts died after
 * applying it, the call ran out of time), the raise is answered from the first instead of folding a
 * second occurrence into the alert. Keys share one namespace per team with the Idempotency-Keys of
 * the team's own requests; the spaces keep these apart from all of those (the gateway admits
 * visible ASCII alone). The digest covers what the action asks, so a key that ever met another
 * action is refused (IDEMPOTENCY_KEY_REUSED), never answered with that one's alert.
 */
function incidentIdempotency(incident: IncidentAlert): { idempotencyKey: string; requestFingerprint: string } {
  const { monitorId, groupKey, title, description, severity, metadata } = incident;
  const asked = JSON.stringify([monitorId, groupKey, title, description, severity, metadata]);
  return {
    idempotencyKey: `monitors incident ${monitorId} ${incident.actionId}`,
    requestFingerprint: createHash("sha256").update(asked).digest("hex"),
  };
}
