import { Migration } from "@pulsegate/db";

/** Cron schedules, start/finish runs and status badges. */
export class SchedulesRunsBadges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE monitors.monitors
        ADD COLUMN schedule text NULL,
        ADD COLUMN timezone text NULL,
        ADD COLUMN max_duration_seconds integer NULL CHECK (max_duration_seconds > 0),
        ADD COLUMN run_started_at timestamptz NULL,
        ADD COLUMN last_duration_ms bigint NULL`);
    // The service gives new monitors 24 random bytes (base64url); existing rows, and rows written
    // by other means, get two random UUIDs' worth (244 random bits) as hex from the default.
    this.addSql(`
      ALTER TABLE monitors.monitors
        ADD COLUMN badge_token text NOT NULL
          DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`);
    this.addSql("CREATE UNIQUE INDEX monitors_badge_token_idx ON monitors.monitors (badge_token)");
    // A start ping is stored like any other, and may be the monitor's last.
    this.addSql("ALTER TABLE monitors.pings DROP CONSTRAINT IF EXISTS pings_status_check");
    this.addSql("ALTER TABLE monitors.pings ADD CONSTRAINT pings_status_check CHECK (status IN ('up','down','start'))");
    this.addSql("ALTER TABLE monitors.pings ADD COLUMN duration_ms bigint NULL");
    this.addSql("ALTER TABLE monitors.monitors DROP CONSTRAINT IF EXISTS monitors_last_ping_status_check");
    this.addSql(
      "ALTER TABLE monitors.monitors ADD CONSTRAINT monitors_last_ping_status_check CHECK (last_ping_status IN ('up','down','start'))",
    );
  }
}
