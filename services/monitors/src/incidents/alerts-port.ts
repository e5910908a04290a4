import type { Severity } from "@pulsegate/contract/vocabulary";

/** An incident to raise as an alert (source monitor), in the monitor's words. */
export type IncidentAlert = {
  /** The incident action's id (monitors.incident_actions): the same on every attempt to send it. */
  actionId: string;
  teamId: string;
  monitorId: string;
  title: string;
  description: string;
  severity: Severity;
  /** Stored as the alert's metadata; null for none. */
  metadata: unknown;
  groupKey: string;
  alertQuotaMonthly: number;
  reopenWindowSeconds: number;
  repeatIntervalSeconds: number | null;
};

export type RaiseOutcome =
  /** An alert holds the incident: `outcome` says how ("created", "occurrence_added", "reopened"). */
  | { kind: "raised"; outcome: string; alertId: string }
  /** Alerts answered but holds no alert for it (the team's alert quota, say): nothing to retry. */
  | { kind: "not_raised"; outcome: string }
  | Refused;

/** Alerts refused the action as invalid: retrying cannot help. `reason`: codes only (refusalOf). */
export type Refused = { kind: "refused"; reason: string };

/**
 * What the incident worker needs of the alerts service. Anything thrown means
 * "not done, retry later" (alerts away, slow or failing).
 */
export interface AlertsPort {
  raise(incident: IncidentAlert): Promise<RaiseOutcome>;
  /** Resolves the alert ("resolved" too when it is already gone), or refuses it: retrying cannot help. */
  resolve(alertId: string): Promise<"resolved" | Refused>;
}
