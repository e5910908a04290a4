import {
  type BatchLimits,
  countedDelete,
  deleteInBatchesInOrder,
  type Orm,
  TEAM_PURGE_SETTLE_SECONDS,
} from "@pulsegate/db";

export const ALERTS_PURGE_LOCK = "pulsegate:purge:alerts";

/** `rows`: a query of at most `?` keys of one table to delete (`key` names its key column). */
const deleting = (table: string, rows: string, key = "id") => `
  WITH doomed AS (${rows}), deleted AS (
    DELETE FROM ${table} t USING doomed WHERE t.${key} = doomed.${key} RETURNING 1
  )
  SELECT count(*)::int AS n FROM deleted`;

/** The teams being purged. */
const PENDING = "SELECT team_id FROM alerts.team_deletions WHERE purged_at IS NULL";

const STEPS: [string, (size: number) => unknown[]][] = [
  // Webhooks: nothing refers to them.
  [
    deleting("alerts.webhooks", `SELECT w.id FROM alerts.webhooks w WHERE w.team_id IN (${PENDING}) LIMIT ?`),
    (size) => [size],
  ],
  // Deliveries of the team's channels (each delivery is one channel's), by deliveries_channel_idx.
  [
    deleting(
      "alerts.deliveries",
      `SELECT d.id FROM alerts.channels c
        CROSS JOIN LATERAL (SELECT x.id FROM alerts.deliveries x WHERE x.channel_id = c.id LIMIT ?) d
        WHERE c.team_id IN (${PENDING}) LIMIT ?`,
    ),
    (size) => [size, size],
  ],
  // Outbox events and occurrences of the team's alerts, then the alerts with neither left.
  [
    deleting(
      "alerts.outbox",
      `SELECT o.id FROM alerts.alerts a
        CROSS JOIN LATERAL (SELECT x.id FROM alerts.outbox x WHERE x.alert_id = a.id LIMIT ?) o
        WHERE a.team_id IN (${PENDING}) LIMIT ?`,
    ),
    (size) => [size, size],
  ],
  [
    deleting(
      "alerts.occurrences",
      `SELECT o.id FROM alerts.alerts a
        CROSS JOIN LATERAL (SELECT x.id FROM alerts.occurrences x WHERE x.alert_id = a.id LIMIT ?) o
        WHERE a.team_id IN (${PENDING}) LIMIT ?`,
    ),
    (size) => [size, size],
  ],
  [
    deleting(
      "alerts.alerts",
      `SELECT a.id FROM alerts.alerts a
        WHERE a.team_id IN (${PENDING})
          AND NOT EXISTS (SELECT 1 FROM alerts.outbox o WHERE o.alert_id = a.id)
          AND NOT EXISTS (SELECT 1 FROM alerts.occurrences o WHERE o.alert_id = a.id)
        LIMIT ?`,
    ),
    (size) => [size],
  ],
  // Channels no delivery refers to any more (a channel notice's outbox event goes with retention).
  [
    deleting(
      "alerts.channels",
      `SELECT c.id FROM alerts.channels c
        WHERE c.team_id IN (${PENDING})
          AND NOT EXISTS (SELECT 1 FROM alerts.deliveries d WHERE d.channel_id = c.id)
        LIMIT ?`,
    ),
    (size) => [size],
  ],
  // Silences, the policy, idempotency keys and quota usage: a few rows each (keys: a day's).
  [
    deleting("alerts.silences", `SELECT s.id FROM alerts.silences s WHERE s.team_id IN (${PENDING}) LIMIT ?`),
    (size) => [size],
  ],
  [
    deleting(
      "alerts.notification_policies",
      `SELECT p.team_id FROM alerts.notification_policies p WHERE p.team_id IN (${PENDING}) LIMIT ?`,
      "team_id",
    ),
    (size) => [size],
  ],
  [
    `WITH doomed AS (
       SELECT k.team_id, k.key FROM alerts.idempotency_keys k WHERE k.team_id IN (${PENDING}) LIMIT ?
     ), deleted AS (
       DELETE FROM alerts.idempotency_keys t USING doomed WHERE t.team_id = doomed.team_id AND t.key = doomed.key
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM deleted`,
    (size) => [size],
  ],
  [
    `WITH doomed AS (
       SELECT u.team_id, u.month FROM alerts.alert_quota_usage u WHERE u.team_id IN (${PENDING}) LIMIT ?
     ), deleted AS (
       DELETE FROM alerts.alert_quota_usage t USING doomed WHERE t.team_id = doomed.team_id AND t.month = doomed.month
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM deleted`,
    (size) => [size],
  ],
  // A team with none of its webhooks, alerts or channels left, past the settle time, is finished.
  [
    `WITH finished AS (
       UPDATE alerts.team_deletions d SET purged_at = now()
        WHERE d.purged_at IS NULL
          AND d.deleted_at < now() - make_interval(secs => ?)
          AND NOT EXISTS (SELECT 1 FROM alerts.webhooks w WHERE w.team_id = d.team_id)
          AND NOT EXISTS (SELECT 1 FROM alerts.alerts a WHERE a.team_id = d.team_id)
          AND NOT EXISTS (SELECT 1 FROM alerts.channels c WHERE c.team_id = d.team_id)
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM finished`,
    () => [],
  ],
];

export type TeamPurgeResult = { skipped: boolean; removed: number; teamsFinished: number; more: boolean };

/**
 * One purge run over deleted teams (docs/decisions.md, "Deleting"): their webhooks, deliveries,
 * outbox events, occurrences, alerts, channels, silences, policy, keys and usage, in that order
 * (what refers to a row goes before it), each step in batches of its own short transaction
 * (deleteInBatches): a big team never holds a lock long or slows another, and a run stops at the
 * batch cap to go on at once in the next.
 */
export async function purgeDeletedTeams(
  orm: Orm,
  limits: BatchLimits & { settleSeconds?: number } = {},
): Promise<TeamPurgeResult> {
  const settle = limits.settleSeconds ?? TEAM_PURGE_SETTLE_SECONDS;
  const steps = STEPS.map(([sql, values], index) =>
    countedDelete(sql, index === STEPS.length - 1 ? () => [settle] : values),
  );
  const { skipped, deleted, more } = await deleteInBatchesInOrder(orm, ALERTS_PURGE_LOCK, steps, limits);
  const teamsFinished = deleted.at(-1) ?? 0;
  const removed = deleted.slice(0, -1).reduce((sum, count) => sum + count, 0);
  return { skipped, removed, teamsFinished, more };
}
