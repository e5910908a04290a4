import type { monitors } from "@pulsegate/proto";
import { monitorStatusName } from "../ping/ping-record.ts";
import { fromJsonText, iso, orNull } from "./absent-as-null.ts";

const PING_STATUSES: ReadonlyMap<number, "up" | "down" | "start"> = new Map([
  [1, "up"],
  [2, "down"],
  [3, "start"],
]);

/** `baseUrl` is the scheme and host the admin request came to, so pingEndpoint reaches this gateway. */
export function monitorJson(monitor: monitors.Monitor, baseUrl: string) {
  return {
    id: monitor.id,
    teamId: monitor.teamId,
    pingUrl: monitor.pingUrl,
    pingEndpoint: `${baseUrl}/api/ping/${encodeURIComponent(monitor.pingUrl)}`,
    name: monitor.name,
    status: monitorStatusName(monitor.status),
    monitoringActive: monitor.monitoringActive,
    // Unused while the monitor has a schedule.
    intervalSeconds: monitor.intervalSeconds,
    schedule: orNull(monitor.schedule),
    timezone: orNull(monitor.timezone),
    graceSeconds: monitor.graceSeconds,
    maxDurationSeconds: monitor.maxDurationSeconds > 0 ? monitor.maxDurationSeconds : null,
    severity: monitor.severity,
    reopenWindowSeconds: monitor.reopenWindowSeconds,
    lastPingAt: iso(monitor.lastPingAt),
    lastPingStatus: PING_STATUSES.get(monitor.lastPingStatus) ?? null,
    lastReason: orNull(monitor.lastReason),
    nextDueAt: iso(monitor.nextDueAt),
    runStartedAt: iso(monitor.runStartedAt),
    lastDurationMs: monitor.lastDurationMs ?? null,
    repeatIntervalSeconds: monitor.repeatIntervalSeconds > 0 ? monitor.repeatIntervalSeconds : null,
    requireTimestamp: monitor.requireTimestamp,
    badgeUrl: `${baseUrl}/badge/${encodeURIComponent(monitor.badgeToken)}.svg`,
    createdAt: iso(monitor.createdAt),
  };
}

export function pingJson(ping: monitors.Ping) {
  return {
    id: ping.id,
    monitorId: ping.monitorId,
    status: PING_STATUSES.get(ping.status) ?? null,
    reason: orNull(ping.reason),
    metadata: fromJsonText(ping.metadataJson),
    method: ping.method,
    receivedAt: iso(ping.receivedAt),
    durationMs: ping.durationMs ?? null,
  };
}
