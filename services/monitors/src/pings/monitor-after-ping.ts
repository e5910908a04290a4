import type { MonitorView } from "../monitors/monitor-row.ts";
import type { PingItem } from "./ping-item.ts";
import type { PingTransition } from "./ping-transition.ts";

/**
 * The monitor once an applied ping has moved it: the one view of a moved monitor that the
 * write (applyPingBatch) stores and the dry run (previewPings) answers. `alertQuotaMonthly` is
 * the team's quota the ping carried (the write keeps it for the incident worker); the dry run
 * passes the monitor's own.
 */
export function monitorAfterPing(
  monitor: MonitorView,
  item: PingItem,
  transition: Extract<PingTransition, { apply: true }>,
  alertQuotaMonthly: number,
): MonitorView {
  return {
    ...monitor,
    status: transition.status,
    monitoringActive: true,
    lastPingAt: item.receivedAt,
    lastPingStatus: item.status,
    lastReason: transition.reason,
    nextDueAt: transition.nextDueAt,
    incidentOpen:
      transition.incident === "raise" ? true : transition.incident === "resolve" ? false : monitor.incidentOpen,
    alertQuotaMonthly,
    runStartedAt: transition.runStartedAt,
    lastDurationMs: transition.durationMs ?? monitor.lastDurationMs,
  };
}
