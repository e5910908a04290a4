import { Migration } from "@pulsegate/db";

export class PingsRetentionIndex extends Migration {
  override async up(): Promise<void> {
    // Retention finds a monitor's pings older than the horizon without reading
    // its recent ones (a busy monitor has many). Migrations run in a transaction,
    // so not CONCURRENTLY: on a large existing table, build it by hand first
    // (CREATE INDEX CONCURRENTLY IF NOT EXISTS ...) and this becomes a no-op.
    this.addSql("CREATE INDEX IF NOT EXISTS pings_monitor_received_idx ON monitors.pings (monitor_id, received_at)");
  }
}
