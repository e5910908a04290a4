import type { MonitorStatus, PingStatus } from "../monitors/monitor.entity.ts";

export type MonitorState = {
  status: MonitorStatus;
  lastPingAt: Date | null;
  lastReason: string | null;
  incidentOpen: boolean;
  intervalSeconds: number;
  graceSeconds: number;
};

export type PingFacts = { status: PingStatus; reason: string | null; receivedAt: Date };

export type PingTransition =
  /** Paused, or older than the last applied ping (a late spooled one): kept as history only. */
  | { apply: false }
  | {
      apply: true;
      status: PingStatus;
      nextDueAt: Date | null;
      /** raise: a new incident; resolve: close the open one; null: nothing for alerts. */
      incident: "raise" | "resolve" | null;
    };

/**
 * DESIGN §5, for one accepted ping: the status becomes the reported one and
 * monitoring is active; a down ping raises an incident unless the monitor is
 * already down for the same reason; an up ping resolves an open incident.
 * An up monitor is due for the sweeper at interval + grace after this ping.
 */
export function pingTransition(monitor: MonitorState, ping: PingFacts): PingTransition {
  if (monitor.status === "paused") return { apply: false };
  if (monitor.lastPingAt && ping.receivedAt.getTime() < monitor.lastPingAt.getTime()) return { apply: false };
  const nextDueAt =
    ping.status === "up"
      ? new Date(ping.receivedAt.getTime() + (monitor.intervalSeconds + monitor.graceSeconds) * 1000)
      : null;
  let incident: "raise" | "resolve" | null = null;
  if (ping.status === "down") {
    const sameReason = (monitor.lastReason ?? "") === (ping.reason ?? "");
    if (!(monitor.status === "down" && sameReason)) incident = "raise";
  } else if (monitor.incidentOpen) {
    incident = "resolve";
  }
  return { apply: true, status: ping.status, nextDueAt, incident };
}
