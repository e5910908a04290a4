import type { monitors } from "@pulsegate/proto";
import { monitorStatusName } from "../ping/ping-record.ts";

const iso = (date: Date | undefined): string | null => (date ? date.toISOString() : null);
const orNull = (value: string): string | null => (value === "" ? null : value);

const PING_STATUSES: ReadonlyMap<number, "up" | "down"> = new Map([
  [1, "up"],
  [2, "down"],
]);

function fromJsonText(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

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
    intervalSeconds: monitor.intervalSeconds,
    graceSeconds: monitor.graceSeconds,
    severity: monitor.severity,
    reopenWindowSeconds: monitor.reopenWindowSeconds,
    lastPingAt: iso(monitor.lastPingAt),
    lastPingStatus: PING_STATUSES.get(monitor.lastPingStatus) ?? null,
    lastReason: orNull(monitor.lastReason),
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
  };
}
