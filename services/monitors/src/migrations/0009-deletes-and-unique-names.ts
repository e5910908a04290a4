import { Migration, uniqueNamesSql } from "@pulsegate/db";

/**
 * Deleting monitors and teams (docs/decisions.md, "Deleting"): a deleted monitor is hidden at once
 * (`deleted_at`) and removed with its pings in bounded batches; a deleted team is recorded and its
 * monitors go the same way. Names are unique among a team's live monitors ("Names"); duplicates
 * stored before are renamed first.
 */
export class DeletesAndUniqueNames extends Migration {
  override async up(): Promise<void> {
    this.addSql("ALTER TABLE monitors.monitors ADD COLUMN IF NOT EXISTS deleted_at timestamptz NULL");
    // Only deleted monitors, which the purge looks for: empty when built.
    this.addSql(
      "CREATE INDEX IF NOT EXISTS monitors_deleted_idx ON monitors.monitors (deleted_at) WHERE deleted_at IS NOT NULL",
    );
    // The purge finds a deleted monitor's incident actions, done ones included, by monitor.
    this.addSql("CREATE INDEX IF NOT EXISTS incident_actions_monitor_idx ON monitors.incident_actions (monitor_id)");
    for (const sql of uniqueNamesSql({
      table: "monitors.monitors",
      index: "monitors_team_name_key",
      within: ["team_id"],
      live: "deleted_at IS NULL",
      maxLength: 200,
    })) {
      this.addSql(sql);
    }
    this.addSql(`
      CREATE TABLE monitors.team_deletions (
        team_id text PRIMARY KEY,
        deleted_at timestamptz NOT NULL,
        purged_at timestamptz NULL
      )`);
    this.addSql(
      "CREATE INDEX team_deletions_pending_idx ON monitors.team_deletions (deleted_at) WHERE purged_at IS NULL",
    );
  }
}
