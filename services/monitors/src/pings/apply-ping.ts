import { type EntityManager, executeWithAsyncCommit } from "@pulsegate/db";
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

/** First day of the ping's UTC month, as the quota's key. */
function monthOf(date: Date): string {
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}-01`;
}

/**
 * Records one ping and moves its monitor (DESIGN §5) in one transaction: the
 * ping row (its key makes a second application a no-op), the monitor's new
 * state and, when the state change calls for one, an incident action in the
 * outbox. The monthly heartbeat count is reserved just before (see
 * reserveHeartbeat) and given back if the ping was not recorded. Pings drained from the spool
 * were already answered 200, so they are never refused: the quota is counted
 * but not enforced, and a ping for a monitor paused meanwhile is kept as
 * history without changing it.
 */
export async function applyPing(
  em: EntityManager,
  item: PingItem,
  options: {
    spooled: boolean;
    now: Date /** Reserved already, with its batch (reserveHeartbeats). */;
    reserved?: boolean;
  },
): Promise<ApplyResult> {
  if (!options.reserved && !(await reserveHeartbeat(em, item, options.spooled))) return { outcome: "quota_exhausted" };
  let result: ApplyResult;
  try {
    result = await recordUnderLock(em, item, options);
  } catch (error) {
    // Best effort: if the database is away the refund fails too, and the count stays one high.
    await refundHeartbeat(em, item).catch(() => undefined);
    throw error;
  }
  if (result.outcome !== "recorded") await refundHeartbeat(em, item);
  return result;
}

async function recordUnderLock(
  em: EntityManager,
  item: PingItem,
  options: { spooled: boolean; now: Date },
): Promise<ApplyResult> {
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
}

/**
 * Reserves `count` pings of one team in its monthly heartbeat quota, all or
 * none; false when the quota cannot take them all (a limit of 0 or less
 * counts without refusing). The usage row is one per team, so the
 * reservation commits on its own without waiting for the WAL flush (see
 * executeWithAsyncCommit) instead of being locked through every ping's fsync.
 */
export async function reserveHeartbeats(
  em: EntityManager,
  teamId: string,
  receivedAt: Date,
  count: number,
  limit: number,
): Promise<boolean> {
  const counted = await executeWithAsyncCommit<{ used: number }[]>(
    em,
    `INSERT INTO monitors.heartbeat_quota_usage AS usage (team_id, month, used)
       SELECT ?, ?::date, ?::integer WHERE ?::integer <= 0 OR ?::integer <= ?::integer
     ON CONFLICT (team_id, month) DO UPDATE SET used = usage.used + EXCLUDED.used
       WHERE ?::integer <= 0 OR usage.used + EXCLUDED.used <= ?::integer
     RETURNING used`,
    [teamId, monthOf(receivedAt), count, limit, count, limit, limit, limit],
  );
  return counted.length > 0;
}

/** One ping's reservation. Spooled pings were answered already: counted, never refused. */
function reserveHeartbeat(em: EntityManager, item: PingItem, spooled: boolean): Promise<boolean> {
  return reserveHeartbeats(em, item.teamId, item.receivedAt, 1, spooled ? 0 : item.heartbeatQuotaMonthly);
}

/** Gives the reservation back when the ping was not recorded (duplicate, paused, unknown, failed). */
export async function refundHeartbeat(em: EntityManager, item: PingItem): Promise<void> {
  await executeWithAsyncCommit(
    em,
    "UPDATE monitors.heartbeat_quota_usage SET used = used - 1 WHERE team_id = ? AND month = ?::date AND used > 0",
    [item.teamId, monthOf(item.receivedAt)],
  );
}
