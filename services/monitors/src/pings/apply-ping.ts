import type { EntityManager } from "@pulsegate/db";
import { writeIncidentAction } from "../incidents/write-incident-action.ts";
import { type MonitorRow, type MonitorView, monitorFromRow } from "../monitors/monitor-row.ts";
import type { PingItem } from "./ping-item.ts";
import { pingTransition } from "./ping-transition.ts";

export type ApplyResult =
  | { outcome: "recorded"; monitor: MonitorView; incident: boolean }
  /** The ping was applied before (a spooled copy of a ping whose commit was uncertain). */
  | { outcome: "duplicate"; monitor: MonitorView }
  | { outcome: "paused"; monitor: MonitorView }
  | { outcome: "quota_exhausted" }
  | { outcome: "monitor_not_found" };

class QuotaExhausted extends Error {}

/** First day of the ping's UTC month, as the quota's key. */
function monthOf(date: Date): string {
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}-01`;
}

/**
 * Records one ping and moves its monitor (DESIGN §5) in one transaction: the
 * ping row (its key makes a second application a no-op), the monthly
 * heartbeat count, the monitor's new state and, when the state change calls
 * for one, an incident action in the outbox. Pings drained from the spool
 * were already answered 200, so they are never refused: the quota is counted
 * but not enforced, and a ping for a monitor paused meanwhile is kept as
 * history without changing it.
 */
export async function applyPing(
  em: EntityManager,
  item: PingItem,
  options: { spooled: boolean; now: Date },
): Promise<ApplyResult> {
  try {
    return await em.transactional(async (tx) => {
      const [row] = await tx.execute<MonitorRow[]>("SELECT * FROM monitors.monitors WHERE id = ? FOR UPDATE", [
        item.monitorId,
      ]);
      if (!row || row.team_id !== item.teamId) return { outcome: "monitor_not_found" };
      const monitor = monitorFromRow(row);
      if (monitor.status === "paused" && !options.spooled) return { outcome: "paused", monitor };

      const inserted = await tx.execute<{ id: string }[]>(
        `INSERT INTO monitors.pings (ping_key, monitor_id, team_id, status, reason, group_key, metadata, method,
                                     received_at, recorded_at, spooled)
         VALUES (?, ?, ?, ?, ?, ?, ?::json, ?, ?, ?, ?)
         ON CONFLICT (ping_key) DO NOTHING RETURNING id`,
        [
          item.pingId,
          item.monitorId,
          item.teamId,
          item.status,
          item.reason,
          item.groupKey,
          item.metadataJson,
          item.method,
          item.receivedAt,
          options.now,
          options.spooled,
        ],
      );
      if (inserted.length === 0) return { outcome: "duplicate", monitor };

      const limit = options.spooled ? 0 : item.heartbeatQuotaMonthly;
      const counted = await tx.execute<{ used: number }[]>(
        `INSERT INTO monitors.heartbeat_quota_usage AS usage (team_id, month, used) VALUES (?, ?::date, 1)
         ON CONFLICT (team_id, month) DO UPDATE SET used = usage.used + 1
           WHERE ?::integer <= 0 OR usage.used < ?::integer
         RETURNING used`,
        [item.teamId, monthOf(item.receivedAt), limit, limit],
      );
      // Rolls the ping row back with everything else.
      if (counted.length === 0) throw new QuotaExhausted();

      const transition = pingTransition(monitor, {
        status: item.status,
        reason: item.reason,
        receivedAt: item.receivedAt,
      });
      if (!transition.apply) return { outcome: "recorded", monitor, incident: false };

      const incidentOpen =
        transition.incident === "raise" ? true : transition.incident === "resolve" ? false : monitor.incidentOpen;
      const [updatedRow] = await tx.execute<MonitorRow[]>(
        `UPDATE monitors.monitors
            SET status = ?, monitoring_active = true, last_ping_at = ?, last_ping_status = ?, last_reason = ?,
                next_due_at = ?, incident_open = ?, alert_quota_monthly = ?, updated_at = ?
          WHERE id = ? RETURNING *`,
        [
          transition.status,
          item.receivedAt,
          item.status,
          item.reason,
          transition.nextDueAt,
          incidentOpen,
          item.alertQuotaMonthly,
          options.now,
          item.monitorId,
        ],
      );
      const updated = monitorFromRow(updatedRow as MonitorRow);
      if (transition.incident) {
        await writeIncidentAction(
          tx as EntityManager,
          transition.incident,
          updated,
          {
            reason: item.reason,
            groupKey: item.groupKey,
            metadata: item.metadataJson ? (JSON.parse(item.metadataJson) as Record<string, unknown>) : null,
            lastPingAt: item.receivedAt,
          },
          options.now,
        );
      }
      return { outcome: "recorded", monitor: updated, incident: transition.incident !== null };
    });
  } catch (error) {
    if (error instanceof QuotaExhausted) return { outcome: "quota_exhausted" };
    throw error;
  }
}
