import { Migration } from "@pulsegate/db";

export class OpenKeyIndexCollation extends Migration {
  override async up(): Promise<void> {
    // The index of open alerts per (team, group key), rebuilt in the "C" collation, which the trigger path
    // names in its look-ups: then no other index can serve them (the team's alert list, by team_id, looked
    // as cheap under statistics taken while the table was nearly empty, and walked every alert of the team).
    // Equality, and so uniqueness, is the same in every deterministic collation: byte for byte.
    this.addSql(`
      CREATE UNIQUE INDEX alerts_one_open_per_key_c ON alerts.alerts (team_id COLLATE "C", group_key COLLATE "C")
        WHERE status <> 'resolved' AND group_key IS NOT NULL`);
    this.addSql("DROP INDEX alerts.alerts_one_open_per_key");
    this.addSql("ALTER INDEX alerts.alerts_one_open_per_key_c RENAME TO alerts_one_open_per_key");
  }
}
