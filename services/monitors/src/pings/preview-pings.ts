import { quotaAllowsOneMore, quotaKey, quotaMonth } from "@pulsegate/contract/quota";
import { type PgPool, run, statement } from "@pulsegate/db";
import { incidentGroupKey } from "../incidents/incident-text.ts";
import { type MonitorRow, type MonitorView, monitorFromRow } from "../monitors/monitor-row.ts";
import { monitorAfterPing } from "./monitor-after-ping.ts";
import type { PingItem } from "./ping-item.ts";
import { pingTransition } from "./ping-transition.ts";

const READ_FOR_PREVIEW = statement(
  "monitors-preview-pings",
  `SELECT (SELECT coalesce(json_agg(m), '[]') FROM monitors.monitors m WHERE m.id = ANY($1::text[]) AND m.deleted_at IS NULL) AS monitors,
          (SELECT coalesce(json_agg(json_build_object('team_id', u.team_id, 'month', to_char(u.month, 'YYYY-MM-DD'),
                                                      'used', u.used)), '[]')
             FROM monitors.heartbeat_quota_usage u
             JOIN unnest($2::text[], $3::date[]) AS q(team_id, month) ON u.team_id = q.team_id AND u.month = q.month)
            AS usage`,
);

export type PreviewResult =
  | {
      outcome: "recorded";
      monitor: MonitorView;
      incident: "raise" | "resolve" | null;
      groupKey: string | null;
      reason: string | null;
    }
  | { outcome: "paused"; monitor: MonitorView }
  | { outcome: "quota_exhausted" | "monitor_not_found" };

/**
 * What applyPingBatch would do with `items` now (a dry run): the same checks
 * (monitor, team, paused, quota) and transitions (ping-transition.ts), the
 * pings of one monitor in order, read in one statement without locks and
 * written nowhere.
 */
export async function previewPings(pool: PgPool, items: PingItem[]): Promise<PreviewResult[]> {
  if (items.length === 0) return [];
  const [row] = await run<{ monitors: MonitorRow[]; usage: { team_id: string; month: string; used: number }[] }>(
    pool,
    READ_FOR_PREVIEW,
    [
      [...new Set(items.map((item) => item.monitorId))],
      items.map((item) => item.teamId),
      items.map((item) => quotaMonth(item.receivedAt)),
    ],
  );
  const monitors = new Map((row?.monitors ?? []).map((monitor) => [monitor.id, monitorFromRow(monitor)]));
  const used = new Map((row?.usage ?? []).map((usage) => [quotaKey(usage.team_id, usage.month), usage.used]));
  return items.map((item): PreviewResult => {
    const monitor = monitors.get(item.monitorId);
    if (!monitor || monitor.teamId !== item.teamId) return { outcome: "monitor_not_found" };
    if (monitor.status === "paused") return { outcome: "paused", monitor };
    const key = quotaKey(item.teamId, quotaMonth(item.receivedAt));
    const count = used.get(key) ?? 0;
    if (!quotaAllowsOneMore(item.heartbeatQuotaMonthly, count)) return { outcome: "quota_exhausted" };
    used.set(key, count + 1);
    const transition = pingTransition(monitor, {
      status: item.status,
      reason: item.reason,
      receivedAt: item.receivedAt,
    });
    if (!transition.apply) return { outcome: "recorded", monitor, incident: null, groupKey: null, reason: null };
    const moved = monitorAfterPing(monitor, item, transition, monitor.alertQuotaMonthly);
    monitors.set(moved.id, moved);
    return {
      outcome: "recorded",
      monitor: moved,
      incident: transition.incident,
      groupKey: transition.incident ? incidentGroupKey(monitor.id, item.groupKey) : null,
      reason: moved.status === "down" ? transition.reason : null,
    };
  });
}
