import { Migration } from "@pulsegate/db";

export class TeamListIndex extends Migration {
  override async up(): Promise<void> {
    // The team's alert list (newest first) without the id: a trailing id let the planner read this whole
    // index to find one alert by id (PostgreSQL's foreign-key check of every occurrence and outbox row) when
    // statistics taken on a nearly empty table made both look like one row. Now only the primary key holds
    // ids. Ties on created_at are ordered by an incremental sort; the keyset cursor still bounds the scan.
    this.addSql("CREATE INDEX alerts_team_created_idx_new ON alerts.alerts (team_id, created_at DESC)");
    this.addSql("DROP INDEX alerts.alerts_team_created_idx");
    this.addSql("ALTER INDEX alerts.alerts_team_created_idx_new RENAME TO alerts_team_created_idx");
  }
}
