// The faults test's accounting: what the load generator saw in a window of time, held against what
// the database stored and what the notification receiver got.
import type pg from "pg";
import type { ReceivedRequest } from "../support/receiver.ts";
import type { Sent } from "./fault-load.ts";

export type Window = { from: number; to: number };

export type Tally = {
  sent: number;
  ok: number;
  /** Non-2xx answers by status. */
  statuses: Record<string, number>;
  /** No answer, by connection error: lost in flight with the gateway that had them. */
  errors: Record<string, number>;
  /** Refused by their first gateway (it was down) and answered by the other. */
  failedOver: number;
  /** Acknowledged (2xx) writes the database does not hold. */
  missing: string[];
  /** Writes the database holds more than once. */
  duplicates: string[];
  /** Writes answered with an error (or not at all) that were stored nonetheless: allowed, counted. */
  storedUnacknowledged: number;
  /** Every request not answered 2xx, in the order sent. */
  failures: Sent[];
};

const isWrite = (entry: Sent) => entry.kind !== "read";
const acknowledged = (entry: Sent) => entry.status !== undefined && entry.status >= 200 && entry.status < 300;

/** The requests sent within `window`, and what became of them. */
export function tally(sent: Sent[], window: Window, stored: Map<string, number>): Tally {
  const inside = sent
    .filter((entry) => entry.sentAt >= window.from && entry.sentAt < window.to)
    .sort((a, b) => a.sentAt - b.sentAt);
  const result: Tally = {
    sent: inside.length,
    ok: 0,
    statuses: {},
    errors: {},
    failedOver: 0,
    missing: [],
    duplicates: [],
    storedUnacknowledged: 0,
    failures: [],
  };
  for (const entry of inside) {
    if (entry.failedOver) result.failedOver += 1;
    if (acknowledged(entry)) result.ok += 1;
    else {
      result.failures.push(entry);
      const counted = entry.status !== undefined ? result.statuses : result.errors;
      const key = String(entry.status ?? entry.error ?? "error");
      counted[key] = (counted[key] ?? 0) + 1;
    }
    if (!isWrite(entry)) continue;
    const copies = stored.get(entry.tag) ?? 0;
    if (copies > 1) result.duplicates.push(entry.tag);
    if (acknowledged(entry) && copies === 0) result.missing.push(entry.tag);
    if (!acknowledged(entry) && copies > 0) result.storedUnacknowledged += 1;
  }
  return result;
}

/** The 2xx share, as a fraction (1 when nothing was sent). */
export const okShare = (counts: Tally) => (counts.sent === 0 ? 1 : counts.ok / counts.sent);

export function formatTally(counts: Tally): string {
  const pairs = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([key, value]) => `${key}×${value}`)
      .join(" ") || "none";
  return [
    `sent ${counts.sent}`,
    `2xx ${counts.ok} (${(okShare(counts) * 100).toFixed(1)} %)`,
    `non-2xx ${pairs(counts.statuses)}`,
    `connection errors ${pairs(counts.errors)}`,
    `failed over ${counts.failedOver}`,
    `acknowledged-but-missing ${counts.missing.length}`,
    `duplicates ${counts.duplicates.length}`,
    `stored-unacknowledged ${counts.storedUnacknowledged}`,
  ].join(", ");
}

/** The failed requests, one short line each (time from `since`, kind, keyed, gateway, answer), at most `max`. */
export function formatFailures(counts: Tally, since: number, max = 12): string {
  const lines = counts.failures.slice(0, max).map((entry) => {
    const offset = `${entry.sentAt < since ? "-" : "+"}${(Math.abs(entry.sentAt - since) / 1000).toFixed(2)}`;
    const answer = entry.status ?? entry.error;
    const took = entry.doneAt - entry.sentAt;
    return `${offset} s ${entry.kind}${entry.keyed ? " (keyed)" : ""} gateway-${entry.gateway + 1} → ${answer} in ${took} ms`;
  });
  if (counts.failures.length > max) lines.push(`… ${counts.failures.length - max} more`);
  return lines.join("; ");
}

/** How many rows hold each tag: alerts' occurrences (one per trigger applied) and monitors' pings. */
export async function storedTags(db: pg.Pool, teamId: string): Promise<Map<string, number>> {
  const { rows } = await db.query<{ tag: string; copies: number }>(
    `SELECT metadata->>'tag' AS tag, count(*)::int AS copies FROM alerts.occurrences WHERE team_id = $1 GROUP BY 1
     UNION ALL
     SELECT metadata->>'tag' AS tag, count(*)::int AS copies FROM monitors.pings WHERE team_id = $1 GROUP BY 1`,
    [teamId],
  );
  return new Map(rows.filter((row) => row.tag !== null).map((row) => [row.tag, row.copies]));
}

export type DeliveryTally = {
  alerts: number;
  /** Alerts whose alert.created event reached the receiver. */
  delivered: number;
  undelivered: string[];
  /** Requests that repeated a delivery id already received (at least once: allowed). */
  repeated: number;
  /** Alerts whose alert.created event came under more than one delivery id (never allowed). */
  splitIds: string[];
};

/** Every alert of the team against the alert.created notifications the receiver got. */
export async function tallyDeliveries(
  db: pg.Pool,
  teamId: string,
  received: ReceivedRequest[],
): Promise<DeliveryTally> {
  const { rows } = await db.query<{ id: string }>("SELECT id FROM alerts.alerts WHERE team_id = $1", [teamId]);
  const idsByAlert = new Map<string, Set<string>>();
  let repeated = 0;
  const seen = new Set<string>();
  for (const request of received) {
    if (request.headers["x-pulsegate-event"] !== "alert.created") continue;
    const alertId = (request.json.alert as { id?: string } | undefined)?.id ?? "";
    const deliveryId = String(request.headers["x-pulsegate-delivery"] ?? "");
    if (seen.has(deliveryId)) repeated += 1;
    seen.add(deliveryId);
    const ids = idsByAlert.get(alertId) ?? new Set<string>();
    ids.add(deliveryId);
    idsByAlert.set(alertId, ids);
  }
  const undelivered = rows.map((row) => row.id).filter((id) => !idsByAlert.has(id));
  const splitIds = [...idsByAlert].filter(([, ids]) => ids.size > 1).map(([alertId]) => alertId);
  return { alerts: rows.length, delivered: rows.length - undelivered.length, undelivered, repeated, splitIds };
}

export function formatDeliveries(counts: DeliveryTally): string {
  return [
    `alerts ${counts.alerts}`,
    `delivered ${counts.delivered}`,
    `undelivered ${counts.undelivered.length}`,
    `repeated deliveries (same id) ${counts.repeated}`,
    `alerts with more than one delivery id ${counts.splitIds.length}`,
  ].join(", ");
}
