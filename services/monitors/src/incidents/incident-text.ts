import { ALERT_LIMITS } from "@pulsegate/contract/limits";
import type { MonitorView } from "../monitors/monitor-row.ts";

export const MISSED_HEARTBEAT = "missed heartbeat";
/** A start ping opened a run, and no up or down ping closed it in time. */
export const RUN_DID_NOT_FINISH = "run did not finish";

function clip(text: string, max: number): string {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join("")}…`;
}

/** The group key of a monitor's incident: the ping's own, else one per monitor (DESIGN §5). */
export function incidentGroupKey(monitorId: string, groupKey: string | null): string {
  return groupKey ?? `monitor:${monitorId}`;
}

/** Title and description of the alert that a down monitor raises; the reason is in both. */
export function incidentText(
  monitor: Pick<MonitorView, "name" | "intervalSeconds" | "graceSeconds"> &
    Partial<Pick<MonitorView, "schedule" | "runStartedAt" | "maxDurationSeconds">>,
  reason: string | null,
  lastPingAt: Date | null,
): { title: string; description: string } {
  const title = clip(`Monitor "${monitor.name}" is down${reason ? `: ${reason}` : ""}`, ALERT_LIMITS.titleMaxLength);
  if (reason === MISSED_HEARTBEAT) {
    const since = lastPingAt ? ` The last ping arrived at ${lastPingAt.toISOString()}.` : "";
    const expected = monitor.schedule
      ? `No ping by the schedule "${monitor.schedule.expression}" (${monitor.schedule.timezone})`
      : `No ping within the ${monitor.intervalSeconds} s interval`;
    return { title, description: `${expected} plus ${monitor.graceSeconds} s grace.${since}` };
  }
  if (reason === RUN_DID_NOT_FINISH && monitor.runStartedAt) {
    const window = Math.min(monitor.graceSeconds, monitor.maxDurationSeconds ?? Number.POSITIVE_INFINITY);
    return {
      title,
      description: `A run started at ${monitor.runStartedAt.toISOString()} and no up or down ping finished it within ${window} s.`,
    };
  }
  return {
    title,
    description: clip(
      reason ? `A ping reported the monitor down: ${reason}` : "A ping reported the monitor down.",
      ALERT_LIMITS.descriptionMaxLength,
    ),
  };
}

/** Alert metadata: the ping's own (group_key already folded in) plus the monitor; the ping's keys win. */
export function incidentMetadata(
  monitor: Pick<MonitorView, "id" | "name">,
  reason: string | null,
  pingMetadata: Record<string, unknown> | null,
): Record<string, unknown> {
  return { monitor: { id: monitor.id, name: monitor.name }, reason, ...(pingMetadata ?? {}) };
}
