import type { monitors } from "@pulsegate/proto";
import { monitorStatusJson, pingStatusJson, severityJson } from "../../json-vocabulary.ts";
import { fromJsonText, iso, orNull } from "./absent-as-null.ts";
import { signingKeyJson } from "./signing-key.ts";

/** `baseUrl` is the scheme and host the admin request came to, so pingEndpoint reaches this gateway. */
export function monitorJson(monitor: monitors.Monitor, baseUrl: string) {
  return {
    id: monitor.id,
    teamId: monitor.teamId,
    pingUrl: monitor.pingUrl,
    pingEndpoint: `${baseUrl}/api/ping/${encodeURIComponent(monitor.pingUrl)}`,
    name: monitor.name,
    status: monitorStatusJson(monitor.status),
    monitoringActive: monitor.monitoringActive,
    // Unused while the monitor has a schedule.
    intervalSeconds: monitor.intervalSeconds,
    schedule: orNull(monitor.schedule),
    timezone: orNull(monitor.timezone),
    graceSeconds: monitor.graceSeconds,
    maxDurationSeconds: monitor.maxDurationSeconds > 0 ? monitor.maxDurationSeconds : null,
    severity: severityJson(monitor.incidentSeverity),
    reopenWindowSeconds: monitor.reopenWindowSeconds,
    lastPingAt: iso(monitor.lastPingAt),
    lastPingStatus: pingStatusJson(monitor.lastPingStatus),
    lastReason: orNull(monitor.lastReason),
    nextDueAt: iso(monitor.nextDueAt),
    runStartedAt: iso(monitor.runStartedAt),
    lastDurationMs: monitor.lastDurationMs ?? null,
    repeatIntervalSeconds: monitor.repeatIntervalSeconds > 0 ? monitor.repeatIntervalSeconds : null,
    requireTimestamp: monitor.requireTimestamp,
    ...signingKeyJson(monitor.signatureScheme),
    badgeUrl: `${baseUrl}/badge/${encodeURIComponent(monitor.badgeToken)}.svg`,
    createdAt: iso(monitor.createdAt),
  };
}

export function pingJson(ping: monitors.Ping) {
  return {
    id: ping.id,
    monitorId: ping.monitorId,
    status: pingStatusJson(ping.status),
    reason: orNull(ping.reason),
    metadata: fromJsonText(ping.metadataJson),
    method: ping.method,
    receivedAt: iso(ping.receivedAt),
    durationMs: ping.durationMs ?? null,
  };
}
