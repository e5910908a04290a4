import { Migration } from "@pulsegate/db";

export class CreateMonitors extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE monitors.monitors (
        id text PRIMARY KEY,
        team_id text NOT NULL,
        ping_url text NOT NULL UNIQUE,
        name varchar(200) NOT NULL,
        status text NOT NULL CHECK (status IN ('idle','up','down','paused')),
        monitoring_active boolean NOT NULL,
        interval_seconds integer NOT NULL CHECK (interval_seconds > 0),
        grace_seconds integer NOT NULL CHECK (grace_seconds >= 0),
        severity text NOT NULL CHECK (severity IN ('sev0','sev1','sev2','sev3','sev4')),
        reopen_window_seconds integer NOT NULL CHECK (reopen_window_seconds >= 0),
        last_ping_at timestamptz NULL,
        last_ping_status text NULL CHECK (last_ping_status IN ('up','down')),
        last_reason text NULL,
        -- When the sweeper must mark the monitor down; set only while monitoring an up monitor.
        next_due_at timestamptz NULL,
        -- An incident was raised and not yet resolved; the alert ids arrive with the outbox worker.
        incident_open boolean NOT NULL DEFAULT false,
        open_alert_ids text[] NOT NULL DEFAULT '{}',
        -- The team's alert quota as last seen on a ping, for incidents the sweeper raises.
        alert_quota_monthly integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    this.addSql("CREATE INDEX monitors_team_idx ON monitors.monitors (team_id, created_at, id)");
    // The sweeper reads only due rows: its cost follows the overdue monitors, not the healthy ones.
    this.addSql("CREATE INDEX monitors_due_idx ON monitors.monitors (next_due_at) WHERE next_due_at IS NOT NULL");
    this.addSql(`
      CREATE TABLE monitors.pings (
        id bigserial PRIMARY KEY,
        -- Generated at receipt; a ping applied twice (spool drain after an uncertain commit) conflicts here.
        ping_key uuid NOT NULL UNIQUE,
        monitor_id text NOT NULL REFERENCES monitors.monitors (id),
        team_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('up','down')),
        reason text NULL,
        group_key text NULL,
        metadata json NULL,
        method text NOT NULL,
        received_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL,
        spooled boolean NOT NULL
      )`);
    this.addSql("CREATE INDEX pings_monitor_idx ON monitors.pings (monitor_id, id DESC)");
    // Accepted pings per team and UTC month.
    this.addSql(`
      CREATE TABLE monitors.heartbeat_quota_usage (
        team_id text NOT NULL,
        month date NOT NULL,
        used integer NOT NULL,
        PRIMARY KEY (team_id, month)
      )`);
    // Outbox of incident raises and resolves: written with the ping or the sweep, sent to alerts after commit.
    this.addSql(`
      CREATE TABLE monitors.incident_actions (
        id bigserial PRIMARY KEY,
        monitor_id text NOT NULL REFERENCES monitors.monitors (id),
        team_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('raise','resolve')),
        title text NOT NULL,
        description text NOT NULL,
        severity text NOT NULL,
        group_key text NOT NULL,
        metadata json NULL,
        reopen_window_seconds integer NOT NULL,
        alert_quota_monthly integer NOT NULL,
        created_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        lease_until timestamptz NULL,
        done_at timestamptz NULL,
        outcome text NULL,
        alert_ids text[] NOT NULL DEFAULT '{}',
        last_error text NULL
      )`);
    this.addSql(
      "CREATE INDEX incident_actions_pending_idx ON monitors.incident_actions (monitor_id, id) WHERE done_at IS NULL",
    );
  }
}
