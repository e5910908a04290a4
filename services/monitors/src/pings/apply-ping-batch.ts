import { quotaAllowsOneMore, quotaKey, quotaMonth } from "@pulsegate/contract/quota";
import { inTransaction, type PgClient, type PgPool, run } from "@pulsegate/db";
import { type IncidentActionRow, incidentActionRow } from "../incidents/incident-action-row.ts";
import { type MonitorRow, type MonitorView, monitorFromRow } from "../monitors/monitor-row.ts";
import { monitorAfterPing } from "./monitor-after-ping.ts";
import { LOCK_BATCH, WRITE_PING_BATCH } from "./ping-batch-statements.ts";
import { type PingAnswer, pingIdempotencyKeys } from "./ping-idempotency-keys.ts";
import type { PingItem } from "./ping-item.ts";
import { pingTransition } from "./ping-transition.ts";

export type ApplyResult =
  /** incidentActionId: the raise or resolve this ping wrote to the incident outbox, if any. */
  | { outcome: "recorded"; monitor: MonitorView; incidentActionId: string | null }
  /** The ping was applied before (a spooled copy of a ping whose commit was uncertain). */
  | { outcome: "duplicate"; monitor: MonitorView }
  | { outcome: "paused"; monitor: MonitorView }
  | { outcome: "quota_exhausted" }
  | { outcome: "monitor_not_found" }
  /** The answer of the ping's Idempotency-Key's first ping, given again: nothing was stored now. */
  | { outcome: "replayed"; answer: PingAnswer }
  | { outcome: "idempotency_key_reused" };

/**
 * A ping's answers under an Idempotency-Key. A ping refused (quota, paused, unknown monitor) applied
 * nothing, so its retry is checked again. A spooled ping was answered 200 already: one whose key
 * holds another request is applied as if it had none (it must not be lost); a repeat of a ping that
 * was applied is the same ping twice, applied once.
 */
const answersUnderKey = (spooled: boolean) => ({
  keep: (result: ApplyResult): PingAnswer | null =>
    result.outcome === "recorded"
      ? {
          id: result.monitor.id,
          teamId: result.monitor.teamId,
          name: result.monitor.name,
          status: result.monitor.status,
          monitoringActive: result.monitor.monitoringActive,
        }
      : null,
  repeat: (answer: PingAnswer): ApplyResult => ({ outcome: "replayed", answer }),
  reused: spooled ? ("apply" as const) : (): ApplyResult => ({ outcome: "idempotency_key_reused" }),
});

/**
 * Records a batch of pings and moves their monitors (DESIGN §5) in one
 * transaction with one synchronous commit: one statement locks the batch's
 * monitors in id order and the heartbeat usage rows of their teams, the transitions are
 * worked out here (the pings of one monitor in arrival order, each seeing the
 * state the previous one left), and one statement writes the ping rows, the
 * monitors' new state, the incident actions and the usage. The quota is counted
 * in the same transaction as the pings it counts: exact, nothing to give back.
 *
 * Pings from the spool (`spooled`) were answered 200 already, so they are never
 * refused: the quota counts them without limit, a monitor paused meanwhile keeps
 * them as history, and one already stored (its deletion from the spool was lost)
 * is a duplicate, applied once.
 */
export async function applyPingBatch(
  pool: PgPool,
  items: PingItem[],
  options: { spooled: boolean; now: Date },
): Promise<ApplyResult[]> {
  if (items.length === 0) return [];
  return inTransaction(pool, (client) =>
    pingIdempotencyKeys.applyOnce(
      client,
      items,
      items.map((item) => item.idempotency ?? null),
      (claimed) => applyClaimed(client, claimed, options),
      answersUnderKey(options.spooled),
    ),
  );
}

async function applyClaimed(
  client: PgClient,
  items: PingItem[],
  options: { spooled: boolean; now: Date },
): Promise<ApplyResult[]> {
  if (items.length === 0) return [];
  // Only a team with a quota needs its usage row read and locked before the batch counts against it;
  // the others' usage is added by the write (which locks the row only from then to the commit), so two
  // batches of one unlimited team overlap until their writes (docs/performance.md, lanes).
  const limited = options.spooled ? [] : items.filter((item) => item.heartbeatQuotaMonthly > 0);
  const [locked] = await run<{
    monitors: MonitorRow[];
    usage: { team_id: string; month: string; used: number }[];
    stored: string[];
  }>(client, LOCK_BATCH, [
    [...new Set(items.map((item) => item.monitorId))],
    limited.map((item) => item.teamId),
    limited.map((item) => quotaMonth(item.receivedAt)),
    options.spooled ? items.map((item) => item.pingId) : [],
  ]);
  const monitors = new Map((locked?.monitors ?? []).map((row) => [row.id, monitorFromRow(row)]));
  const stored = new Set(locked?.stored ?? []);
  const used = new Map((locked?.usage ?? []).map((row) => [quotaKey(row.team_id, row.month), row.used]));
  const counted = new Map<string, number>();

  const write = new BatchWrite(options);
  const results: ApplyResult[] = [];
  const actionOf: (number | null)[] = [];
  for (const item of items) {
    actionOf.push(null);
    const monitor = monitors.get(item.monitorId);
    if (!monitor || monitor.teamId !== item.teamId) {
      results.push({ outcome: "monitor_not_found" });
      continue;
    }
    if (stored.has(item.pingId)) {
      results.push({ outcome: "duplicate", monitor });
      continue;
    }
    if (monitor.status === "paused" && !options.spooled) {
      results.push({ outcome: "paused", monitor });
      continue;
    }
    const key = quotaKey(item.teamId, quotaMonth(item.receivedAt));
    const count = (used.get(key) ?? 0) + (counted.get(key) ?? 0);
    const limit = options.spooled ? 0 : item.heartbeatQuotaMonthly;
    if (!quotaAllowsOneMore(limit, count)) {
      results.push({ outcome: "quota_exhausted" });
      continue;
    }
    counted.set(key, (counted.get(key) ?? 0) + 1);

    const transition = pingTransition(monitor, {
      status: item.status,
      reason: item.reason,
      receivedAt: item.receivedAt,
    });
    write.ping(item, transition.apply ? transition.durationMs : null);
    if (!transition.apply) {
      results.push({ outcome: "recorded", monitor, incidentActionId: null });
      continue;
    }
    const moved = monitorAfterPing(monitor, item, transition, item.alertQuotaMonthly);
    monitors.set(moved.id, moved);
    write.monitor(moved);
    if (transition.incident) {
      actionOf[actionOf.length - 1] = write.action(
        incidentActionRow(
          transition.incident,
          moved,
          {
            reason: transition.reason,
            groupKey: item.groupKey,
            metadata: item.metadataJson ? (JSON.parse(item.metadataJson) as Record<string, unknown>) : null,
            lastPingAt: item.receivedAt,
          },
          options.now,
        ),
      );
    }
    results.push({ outcome: "recorded", monitor: moved, incidentActionId: null });
  }
  for (const [key, pings] of counted) {
    const [teamId, month] = key.split("\u0000") as [string, string];
    write.usage(teamId, month, pings);
  }

  const actionIds = write.empty ? [] : await write.run(client);
  return results.map((result, index) => {
    const action = actionOf[index];
    return result.outcome === "recorded" && action !== null && action !== undefined
      ? { ...result, incidentActionId: actionIds[action] ?? null }
      : result;
  });
}

/** A timestamp as the document carries it (see BatchWrite). */
const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/**
 * The rows of WRITE_PING_BATCH, gathered item by item, sent as one JSON document. Timestamps go in
 * as ISO text, not as Dates: JSON.stringify leaves its fast path for every object with a toJSON, and
 * a 25-ping document cost twice as much to build and write with Dates in it (docs/performance.md,
 * "Issue 25, third session").
 */
class BatchWrite {
  readonly #options: { spooled: boolean; now: Date };
  readonly #now: string;
  readonly #pings: object[] = [];
  readonly #monitors = new Map<string, MonitorView>();
  readonly #actions: object[] = [];
  readonly #usage: object[] = [];

  constructor(options: { spooled: boolean; now: Date }) {
    this.#options = options;
    this.#now = options.now.toISOString();
  }

  get empty(): boolean {
    return this.#pings.length === 0;
  }

  ping(item: PingItem, durationMs: number | null): void {
    this.#pings.push({
      ping_key: item.pingId,
      monitor_id: item.monitorId,
      team_id: item.teamId,
      status: item.status,
      reason: item.reason,
      group_key: item.groupKey,
      // Embedded as a JSON object in the document (jsonb_to_recordset reads it into the jsonb column).
      metadata: item.metadataJson === null ? null : (JSON.parse(item.metadataJson) as unknown),
      method: item.method,
      received_at: item.receivedAt.toISOString(),
      recorded_at: this.#now,
      spooled: this.#options.spooled,
      duration_ms: durationMs,
    });
  }

  /** The monitor's latest state: a later ping of the same monitor in the batch replaces it. */
  monitor(monitor: MonitorView): void {
    this.#monitors.set(monitor.id, monitor);
  }

  /** Returns the action's position, which maps to its id after the write. */
  action(row: IncidentActionRow): number {
    this.#actions.push({
      monitor_id: row.monitorId,
      team_id: row.teamId,
      kind: row.kind,
      title: row.title,
      description: row.description,
      severity: row.severity,
      group_key: row.groupKey,
      metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as unknown),
      reopen_window_seconds: row.reopenWindowSeconds,
      repeat_interval_seconds: row.repeatIntervalSeconds,
      alert_quota_monthly: row.alertQuotaMonthly,
      created_at: iso(row.createdAt),
    });
    return this.#actions.length - 1;
  }

  usage(teamId: string, month: string, pings: number): void {
    this.#usage.push({ team_id: teamId, month, used: pings });
  }

  async run(client: Parameters<typeof run>[0]): Promise<string[]> {
    const monitors = [...this.#monitors.values()].map((m) => ({
      id: m.id,
      status: m.status,
      last_ping_at: iso(m.lastPingAt),
      last_ping_status: m.lastPingStatus,
      last_reason: m.lastReason,
      next_due_at: iso(m.nextDueAt),
      incident_open: m.incidentOpen,
      alert_quota_monthly: m.alertQuotaMonthly,
      run_started_at: iso(m.runStartedAt),
      last_duration_ms: m.lastDurationMs,
      updated_at: this.#now,
    }));
    const document = JSON.stringify({ pings: this.#pings, monitors, actions: this.#actions, usage: this.#usage });
    const [row] = await run<{ action_ids: string[] }>(client, WRITE_PING_BATCH, [document]);
    return row?.action_ids ?? [];
  }
}
