import { NotFoundError } from "@pulsegate/errors";
import { callUnary, type DeadlineClient, domainErrorFromGrpc, refusalOf } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import { traceparentOf } from "@pulsegate/telemetry";
import { severityEnum } from "@pulsegate/vocabulary/proto";
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
        response = await callUnary(client, client.triggerAlert, { items: [triggerItem(incident)] });
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
        await callUnary(client, client.resolveAlert, { id: alertId });
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
    idempotencyKey: "",
    requestFingerprint: "",
  };
}
