import { Migration } from "@pulsegate/db";

export class CreateAlerts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE alerts.webhooks (
        id text PRIMARY KEY,
        team_id text NOT NULL,
        webhook_url text NOT NULL UNIQUE,
        name varchar(200) NOT NULL,
        default_severity text NOT NULL CHECK (default_severity IN ('sev0','sev1','sev2','sev3','sev4')),
        enabled boolean NOT NULL,
        filter_rules jsonb NOT NULL DEFAULT '[]',
        rate_limit_per_minute integer NOT NULL CHECK (rate_limit_per_minute > 0),
        reopen_window_seconds integer NOT NULL CHECK (reopen_window_seconds >= 0),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    this.addSql("CREATE INDEX webhooks_team_idx ON alerts.webhooks (team_id, created_at)");
    this.addSql(`
      CREATE TABLE alerts.alerts (
        id text PRIMARY KEY,
        team_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('open','acknowledged','resolved')),
        group_key text NULL,
        title text NOT NULL,
        description text NOT NULL DEFAULT '',
        severity text NOT NULL CHECK (severity IN ('sev0','sev1','sev2','sev3','sev4')),
        occurrence_count integer NOT NULL CHECK (occurrence_count > 0),
        source text NOT NULL CHECK (source IN ('webhook','monitor')),
        source_id text NOT NULL,
        metadata json NULL,
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        acknowledged_at timestamptz NULL,
        resolved_at timestamptz NULL,
        created_at timestamptz NOT NULL
      )`);
    // At most one open (or acknowledged) alert per team and group key: the
    // database itself guards the folding rule.
    this.addSql(`
      CREATE UNIQUE INDEX alerts_one_open_per_key ON alerts.alerts (team_id, group_key)
        WHERE status <> 'resolved' AND group_key IS NOT NULL`);
    this.addSql(`
      CREATE INDEX alerts_resolved_by_key ON alerts.alerts (team_id, group_key, resolved_at DESC)
        WHERE status = 'resolved' AND group_key IS NOT NULL`);
    this.addSql("CREATE INDEX alerts_team_created_idx ON alerts.alerts (team_id, created_at DESC, id DESC)");
    this.addSql(`
      CREATE TABLE alerts.occurrences (
        id bigserial PRIMARY KEY,
        alert_id text NOT NULL REFERENCES alerts.alerts (id),
        team_id text NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('created','occurrence_added','reopened')),
        source text NOT NULL,
        source_id text NOT NULL,
        title text NOT NULL,
        description text NOT NULL DEFAULT '',
        severity text NOT NULL,
        metadata json NULL,
        received_at timestamptz NOT NULL
      )`);
    this.addSql("CREATE INDEX occurrences_alert_idx ON alerts.occurrences (alert_id, id DESC)");
    // Created and reopened alerts per team and UTC month (folds never count).
    this.addSql(`
      CREATE TABLE alerts.alert_quota_usage (
        team_id text NOT NULL,
        month date NOT NULL,
        used integer NOT NULL,
        PRIMARY KEY (team_id, month)
      )`);
    // Transactional outbox: written with the alert, delivered by the dispatcher.
    this.addSql(`
      CREATE TABLE alerts.outbox (
        id bigserial PRIMARY KEY,
        team_id text NOT NULL,
        alert_id text NOT NULL REFERENCES alerts.alerts (id),
        event_type text NOT NULL CHECK (event_type IN ('alert.created','alert.reopened','alert.resolved')),
        payload json NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    this.addSql("CREATE INDEX outbox_alert_idx ON alerts.outbox (alert_id, id)");
  }
}
