import type { MonitorStatus, PingStatus } from "@pulsegate/contract/vocabulary";
import { nextRun, type Schedule } from "../monitors/schedule.ts";

export type MonitorState = {
  status: MonitorStatus;
  lastPingAt: Date | null;
  lastReason: string | null;
  incidentOpen: boolean;
  intervalSeconds: number;
  graceSeconds: number;
  /** Set for a monitor on a cron schedule (then intervalSeconds is unused). */
  schedule?: Schedule | null;
  /** When the open run started (a start ping not closed yet). */
  runStartedAt?: Date | null;
  /** A finished run longer than this is down; null: no maximum. */
  maxDurationSeconds?: number | null;
};

export type PingFacts = { status: PingStatus; reason: string | null; receivedAt: Date };

export type PingTransition =
  /** Paused, or older than the last applied ping (a late spooled one): kept as history only. */
  | { apply: false }
  | {
      apply: true;
      status: MonitorStatus;
      /** The monitor's reason after the ping (the ping's own, or why a slow run is down). */
      reason: string | null;
      nextDueAt: Date | null;
      /** raise: a new incident; resolve: close the open one; null: nothing for alerts. */
      incident: "raise" | "resolve" | null;
      /** The open run after the ping: set by a start ping, cleared by the up or down ping that closes it. */
      runStartedAt: Date | null;
      /** For the ping that closed a run: how long the run took. */
      durationMs: number | null;
    };

/** The reason of a monitor whose finished run took longer than its maximum. */
export function slowRunReason(durationMs: number, maxDurationSeconds: number): string {
  return `run took ${Math.round(durationMs / 1000)} s, longer than the ${maxDurationSeconds} s maximum`;
}

/**
 * When an up monitor is due for the sweeper after a ping at `at`: interval +
 * grace later, or for a scheduled monitor the schedule's next run after `at`
 * plus the grace (null if the schedule never fires again).
 */
export function dueAfter(monitor: MonitorState, at: Date): Date | null {
  const graceMs = monitor.graceSeconds * 1000;
  if (monitor.schedule) {
    const next = nextRun(monitor.schedule, at);
    return next === null ? null : new Date(next.getTime() + graceMs);
  }
  return new Date(at.getTime() + monitor.intervalSeconds * 1000 + graceMs);
}

/**
 * DESIGN §5, for one accepted ping: the status becomes the reported one and
 * monitoring is active; a down ping raises an incident unless the monitor is
 * already down for the same reason; an up ping resolves an open incident.
 * An up monitor is due for the sweeper at interval + grace after this ping
 * (scheduled monitors: at the schedule's next run + grace).
 *
 * Runs: a start ping opens a run and leaves the status as it is;
 * the run is due at its start + grace (or + the maximum duration, if shorter),
 * when the sweeper marks it down with `run did not finish`. The next up or
 * down ping closes the run and carries its duration; an up ping that closes a
 * run longer than the maximum counts as down, with the slow run as reason.
 */
export function pingTransition(monitor: MonitorState, ping: PingFacts): PingTransition {
  if (monitor.status === "paused") return { apply: false };
  if (monitor.lastPingAt && ping.receivedAt.getTime() < monitor.lastPingAt.getTime()) return { apply: false };
  const runStartedAt = monitor.runStartedAt ?? null;
  if (ping.status === "start") {
    const windowSeconds = Math.min(monitor.graceSeconds, monitor.maxDurationSeconds ?? Number.POSITIVE_INFINITY);
    return {
      apply: true,
      status: monitor.status,
      reason: monitor.lastReason,
      nextDueAt: new Date(ping.receivedAt.getTime() + windowSeconds * 1000),
      incident: null,
      runStartedAt: ping.receivedAt,
      durationMs: null,
    };
  }
  const durationMs = runStartedAt === null ? null : ping.receivedAt.getTime() - runStartedAt.getTime();
  let status: "up" | "down" = ping.status;
  let reason = ping.reason;
  const max = monitor.maxDurationSeconds ?? null;
  if (status === "up" && durationMs !== null && max !== null && durationMs > max * 1000) {
    status = "down";
    reason = slowRunReason(durationMs, max);
  }
  const nextDueAt = status === "up" ? dueAfter(monitor, ping.receivedAt) : null;
  let incident: "raise" | "resolve" | null = null;
  if (status === "down") {
    const sameReason = (monitor.lastReason ?? "") === (reason ?? "");
    if (!(monitor.status === "down" && sameReason)) incident = "raise";
  } else if (monitor.incidentOpen) {
    incident = "resolve";
  }
  return { apply: true, status, reason, nextDueAt, incident, runStartedAt: null, durationMs };
}
