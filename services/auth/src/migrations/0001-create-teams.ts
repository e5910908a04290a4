import { Migration } from "@pulsegate/db";

export class CreateTeams extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE auth.teams (
        id text PRIMARY KEY,
        name varchar(200) NOT NULL,
        subscription_expires_at timestamptz NULL,
        alert_quota_monthly integer NOT NULL CHECK (alert_quota_monthly >= 0),
        heartbeat_quota_monthly integer NOT NULL CHECK (heartbeat_quota_monthly >= 0),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        secret_fingerprint char(64) NOT NULL,
        secret_sealed bytea NOT NULL,
        secret_rotated_at timestamptz NOT NULL,
        current_secret_last_used_at timestamptz NULL,
        previous_secret_fingerprint char(64) NULL,
        previous_secret_sealed bytea NULL,
        previous_secret_valid_until timestamptz NULL,
        previous_secret_last_used_at timestamptz NULL
      )`);
  }
}
