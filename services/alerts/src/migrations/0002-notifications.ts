import { Migration } from "@pulsegate/db";

export class Notifications extends Migration {
  override async up(): Promise<void> {
    // A channel's URL is a secret (a Slack webhook URL is a credential): it is
    // never logged nor returned, only shown masked.
    this.addSql(`
      CREATE TABLE alerts.channels (
        id text PRIMARY KEY,
        team_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('slack','webhook')),
        name varchar(200) NOT NULL,
        url text NOT NULL,
        enabled boolean NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deleted_at timestamptz NULL
      )`);
    this.addSql("CREATE INDEX channels_team_idx ON alerts.channels (team_id, created_at) WHERE deleted_at IS NULL");
    // routes: [{"severities": ["sev0", ...], "channelIds": ["ch_...", ...]}]
    this.addSql(`
      CREATE TABLE alerts.notification_policies (
        team_id text PRIMARY KEY,
        routes jsonb NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    // The dispatcher expands each outbox event into deliveries once; rows
    // written before notifications existed have nobody to notify.
    this.addSql("ALTER TABLE alerts.outbox ADD COLUMN expanded_at timestamptz NULL");
    this.addSql("UPDATE alerts.outbox SET expanded_at = created_at");
    this.addSql("CREATE INDEX outbox_unexpanded_idx ON alerts.outbox (id) WHERE expanded_at IS NULL");
    // One delivery per event and channel (the unique key makes expansion
    // idempotent); its id is the X-Pulsegate-Delivery header on every attempt.
    this.addSql(`
      CREATE TABLE alerts.deliveries (
        id text PRIMARY KEY,
        outbox_id bigint NOT NULL REFERENCES alerts.outbox (id),
        channel_id text NOT NULL REFERENCES alerts.channels (id),
        team_id text NOT NULL,
        alert_id text NOT NULL,
        event_type text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending','delivered','failed','cancelled')),
        attempts integer NOT NULL DEFAULT 0,
        max_attempts integer NOT NULL CHECK (max_attempts > 0),
        next_attempt_at timestamptz NOT NULL,
        locked_until timestamptz NULL,
        lease_token text NULL,
        last_attempt_at timestamptz NULL,
        last_status_code integer NULL,
        last_error text NULL,
        delivered_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (outbox_id, channel_id)
      )`);
    this.addSql("CREATE INDEX deliveries_due_idx ON alerts.deliveries (next_attempt_at) WHERE status = 'pending'");
    // "Is an earlier delivery of this alert to this channel still pending?"
    this.addSql("CREATE INDEX deliveries_order_idx ON alerts.deliveries (alert_id, channel_id, outbox_id)");
    this.addSql(
      "CREATE INDEX deliveries_channel_pending_idx ON alerts.deliveries (channel_id) WHERE status = 'pending'",
    );
  }
}
