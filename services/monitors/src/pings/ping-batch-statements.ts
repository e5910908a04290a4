import { statement } from "@pulsegate/db";
import { monitorColumns } from "../monitors/monitor-row.ts";

/**
 * The ping batch's statements: named, so each connection prepares them once.
 * Values travel as arrays (unnest), one statement for the whole batch.
 */

/**
 * Everything the batch must know before it writes, in one round trip: its
 * monitors, locked in id order (two batches lock in the same order: no
 * deadlock); then the heartbeat usage rows of those monitors' (team, month)
 * pairs, created when missing and locked (the no-op update takes the row
 * lock) in (team, month) order, after the monitors (they are read from
 * `locked`, which orders the two); and which of the given ping keys are
 * stored already (a spooled ping applied before, its deletion lost; none
 * asked for live pings). A deleted monitor is not locked: its pings find no monitor. (A deleted
 * team's are refused before, by auth; one racing the delete goes with the team's rows.)
 *  $1 monitor ids; $2, $3 team ids and months ('YYYY-MM-01') of the pings; $4 ping keys to look for.
 */
export const LOCK_BATCH = statement(
  "monitors-lock-ping-batch",
  `WITH locked AS (
     SELECT ${monitorColumns()} FROM monitors.monitors
      WHERE id = ANY($1::text[]) AND deleted_at IS NULL ORDER BY id FOR NO KEY UPDATE
   ), usage AS (
     INSERT INTO monitors.heartbeat_quota_usage AS usage (team_id, month, used)
     SELECT DISTINCT p.team_id, p.month::date, 0
       FROM unnest($2::text[], $3::text[]) AS p(team_id, month)
      WHERE p.team_id IN (SELECT team_id FROM locked)
      ORDER BY 1, 2
     ON CONFLICT (team_id, month) DO UPDATE SET used = usage.used
     RETURNING team_id, to_char(month, 'YYYY-MM-DD') AS month, used
   )
   SELECT (SELECT coalesce(json_agg(locked), '[]') FROM locked) AS monitors,
          (SELECT coalesce(json_agg(usage), '[]') FROM usage) AS usage,
          (SELECT coalesce(array_agg(ping_key::text), '{}') FROM monitors.pings WHERE ping_key = ANY($4::uuid[]))
            AS stored`,
);

/**
 * Everything the batch changes, in one statement: the ping rows, each
 * monitor's state after its last ping, the incident actions (ids in the order
 * given) and the heartbeat usage. One JSON document carries the rows
 * ({pings, monitors, actions, usage}): JSON.stringify is native, and pg's
 * array parameters are built value by value in JavaScript.
 */
export const WRITE_PING_BATCH = statement(
  "monitors-write-ping-batch",
  `WITH batch AS (SELECT $1::jsonb AS doc), pings AS (
     INSERT INTO monitors.pings (ping_key, monitor_id, team_id, status, reason, group_key, metadata, method,
                                 received_at, recorded_at, spooled, duration_ms)
     SELECT p.ping_key, p.monitor_id, p.team_id, p.status, p.reason, p.group_key, p.metadata, p.method,
            p.received_at, p.recorded_at, p.spooled, p.duration_ms
       FROM batch, jsonb_to_recordset(batch.doc->'pings')
            AS p(ping_key uuid, monitor_id text, team_id text, status text, reason text, group_key text,
                 metadata jsonb, method text, received_at timestamptz, recorded_at timestamptz, spooled boolean,
                 duration_ms bigint)
     RETURNING 1
   ), moved AS (
     UPDATE monitors.monitors AS m
        SET status = u.status, monitoring_active = true, last_ping_at = u.last_ping_at,
            last_ping_status = u.last_ping_status, last_reason = u.last_reason, next_due_at = u.next_due_at,
            incident_open = u.incident_open, alert_quota_monthly = u.alert_quota_monthly,
            run_started_at = u.run_started_at, last_duration_ms = u.last_duration_ms, updated_at = u.updated_at
       FROM batch, jsonb_to_recordset(batch.doc->'monitors')
            AS u(id text, status text, last_ping_at timestamptz, last_ping_status text, last_reason text,
                 next_due_at timestamptz, incident_open boolean, alert_quota_monthly integer,
                 run_started_at timestamptz, last_duration_ms bigint, updated_at timestamptz)
      WHERE m.id = u.id
     RETURNING 1
   ), counted AS (
     INSERT INTO monitors.heartbeat_quota_usage AS usage (team_id, month, used)
     SELECT q.team_id, q.month, q.used
       FROM batch, jsonb_to_recordset(batch.doc->'usage') AS q(team_id text, month date, used integer)
     ON CONFLICT (team_id, month) DO UPDATE SET used = usage.used + EXCLUDED.used
     RETURNING 1
   ), actions AS (
     INSERT INTO monitors.incident_actions (monitor_id, team_id, kind, title, description, severity, group_key,
                                            metadata, reopen_window_seconds, alert_quota_monthly, created_at,
                                            next_attempt_at, repeat_interval_seconds)
     SELECT a.monitor_id, a.team_id, a.kind, a.title, a.description, a.severity, a.group_key, a.metadata,
            a.reopen_window_seconds, a.alert_quota_monthly, a.created_at, a.created_at, a.repeat_interval_seconds
       FROM batch, jsonb_array_elements(batch.doc->'actions') WITH ORDINALITY AS e(action, ordinal),
            jsonb_to_record(e.action)
            AS a(monitor_id text, team_id text, kind text, title text, description text, severity text,
                 group_key text, metadata jsonb, reopen_window_seconds integer, alert_quota_monthly integer,
                 created_at timestamptz, repeat_interval_seconds integer)
      ORDER BY e.ordinal
     RETURNING id
   )
   SELECT (SELECT count(*) FROM pings) AS pings, (SELECT count(*) FROM moved) AS moved,
          (SELECT count(*) FROM counted) AS counted,
          COALESCE((SELECT array_agg(id::text ORDER BY id) FROM actions), '{}') AS action_ids`,
);
